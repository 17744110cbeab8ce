// npm test after `biome ci`: the type check (bin/typecheck.mjs) and the test run (vitest run, with
// npm test's arguments) side by side. The tests wait on sockets and child processes often enough to
// leave a core idle now and then, and the type check fills those moments instead of running first.
// Exits non-zero when either fails.
import { runNode } from './run-node.mjs';

const [typecheck, tests] = await Promise.all([
  runNode(['bin/typecheck.mjs']),
  runNode(['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)]),
]);
if (typecheck !== 0) process.stderr.write('npm test: the type check failed (see the tsc errors above)\n');
process.exit(typecheck !== 0 ? typecheck : tests);
