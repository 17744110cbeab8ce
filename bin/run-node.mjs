import { spawn } from 'node:child_process';

/** Runs a command with these arguments, its output on ours; resolves to its exit code (1 when a signal ended it). */
export const run = (command, args, env = {}) =>
  new Promise((done) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });

/** Runs node with these arguments. */
export const runNode = (args) => run(process.execPath, args);
