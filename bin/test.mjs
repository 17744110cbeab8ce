// npm test after `biome ci`: the type check (bin/typecheck.mjs) and the test run (vitest run, with
// npm test's arguments) side by side. The tests wait on sockets and child processes often enough to
// leave a core idle now and then, and the type check fills those moments instead of running first.
// Exits non-zero when either fails.
//
// As root (CI), the test run gets a network namespace of its own (unshare --net): loopback only, so
// no test can reach another host, and the mail lab's SMTP servers listen on port 25 of 127.0.0.1 and
// ::1 without meeting the machine's own mail server. Elsewhere it runs as it is and the port-25
// tests skip (CI=true fails them instead).
import { spawnSync } from 'node:child_process';
import { run, runNode } from './run-node.mjs';

const LOOPBACK_UP = 'ip link set lo up';
const isolated =
  process.getuid?.() === 0 &&
  spawnSync('unshare', ['--net', 'sh', '-c', LOOPBACK_UP], { stdio: 'ignore' }).status === 0;
const vitest = [process.execPath, 'node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)];

const [typecheck, tests] = await Promise.all([
  runNode(['bin/typecheck.mjs']),
  isolated
    ? run('unshare', ['--net', 'sh', '-c', `${LOOPBACK_UP} && exec "$@"`, 'sh', ...vitest], { TEST_NETNS: '1' })
    : run(vitest[0], vitest.slice(1)),
]);
if (typecheck !== 0) process.stderr.write('npm test: the type check failed (see the tsc errors above)\n');
process.exit(typecheck !== 0 ? typecheck : tests);
