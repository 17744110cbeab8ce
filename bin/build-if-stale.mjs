// Runs the build (TypeScript, then the dashboard with Vite) only when a source file is newer than the
// last build, so `npm start` restarts in about a second. The build itself runs at `npm ci` (prepare).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = [
  'server',
  'services',
  'infra',
  'domain',
  'routers',
  'db',
  'scanner',
  'openapi',
  'bin',
  'client',
  'bench/server.ts',
  'web',
  'tsconfig.json',
  'tsconfig.build.json',
  'package-lock.json',
];
const STAMP = 'dist/server/main.js';

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
if (SOURCES.filter(existsSync).some((source) => newest(source) > built)) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
    { stdio: 'inherit' },
  );
}
