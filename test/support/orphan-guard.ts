import { spawn, type ChildProcess } from 'node:child_process';

// A killed `npm test` (a CI time-out, Ctrl-C twice, SIGKILL) runs no cleanup of its own, so servers
// the tests started would live on, holding ports. Each such child gets a watchdog: a tiny detached
// process that polls the test process and kills the child (its whole process group when it leads
// one) as soon as the test process is gone, however it went.

const WATCHDOG = `
const [parent, target, group] = process.argv.slice(1).map(Number);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
setInterval(() => {
  if (!alive(target)) process.exit(0);
  if (alive(parent)) return;
  try { process.kill(group ? -target : target, 'SIGKILL'); } catch {}
  process.exit(0);
}, 250);
`;

/** Ties `child` to this process: when this process dies, the child (or its group, if spawned detached) is killed. */
export function killWithThisProcess<T extends ChildProcess>(child: T, options: { group?: boolean } = {}): T {
  if (child.pid === undefined) return child;
  const watchdog = spawn(
    process.execPath,
    ['-e', WATCHDOG, String(process.pid), String(child.pid), options.group ? '1' : '0'],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  return child;
}
