// Type-checks the service and the dashboard at once: two tsc processes on two cores instead of one
// after the other (npm test, npm run typecheck). Exits non-zero when either fails.
import { spawn } from 'node:child_process';

const projects = ['.', 'web'];
const codes = await Promise.all(
  projects.map(
    (project) =>
      new Promise((done) => {
        const tsc = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { stdio: 'inherit' });
        tsc.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
      }),
  ),
);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
