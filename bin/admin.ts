import { existsSync } from 'node:fs';
import { runAdmin } from './admin-cli.ts';

// npm run -s admin -- <command>: the operators' command line; the commands live in admin-cli.ts.
if (existsSync('.env')) process.loadEnvFile('.env');
process.exitCode = await runAdmin(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
