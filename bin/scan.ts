import { existsSync } from 'node:fs';
import { runScan } from './scan-cli.ts';

// npm run -s scan -- <url>: settings may come from a .env file; variables already set win.
if (existsSync('.env')) process.loadEnvFile('.env');
runScan(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then((code) =>
  process.exit(code),
);
