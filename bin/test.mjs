// npm test after `biome ci`: the type check (bin/typecheck.mjs) and the test run (vitest run, with
// npm test's arguments) side by side. The tests wait on sockets and child processes often enough to
// leave a core idle now and then, and the type check fills those moments instead of running first.
// Exits non-zero when either fails.
import { spawn } from 'node:child_process';

const run = (args) =>
  new Promise((done) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });

const [typecheck, tests] = await Promise.all([
  run(['bin/typecheck.mjs']),
  run(['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)]),
]);
if (typecheck !== 0) process.stderr.write('npm test: the type check failed (see the tsc errors above)\n');
process.exit(typecheck !== 0 ? typecheck : tests);
