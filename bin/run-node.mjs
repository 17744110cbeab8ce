import { spawn } from 'node:child_process';

/** Runs node with these arguments, its output on ours; resolves to its exit code (1 when a signal ended it). */
export const runNode = (args) =>
  new Promise((done) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
