import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCa } from './test-ca.ts';

/**
 * Makes the test CA once per run. Test workers start after this and inherit the environment,
 * so Node trusts the CA through NODE_EXTRA_CA_CERTS, exactly as a deployment would trust a private CA.
 */
export default function setup(): () => void {
  // Suites that start the built service (npm start, dist/) find a fresh build; built here once, not
  // by several suites at the same time.
  execFileSync(process.execPath, ['bin/build-if-stale.mjs'], {
    cwd: join(import.meta.dirname, '..', '..'),
    stdio: 'inherit',
  });
  const dir = mkdtempSync(join(tmpdir(), 'scanner-test-ca-'));
  const ca = createCa();
  writeFileSync(join(dir, 'ca.pem'), ca.certPem);
  writeFileSync(join(dir, 'ca-key.pem'), ca.keyPem, { mode: 0o600 });
  process.env.NODE_EXTRA_CA_CERTS = join(dir, 'ca.pem');
  process.env.TEST_CA_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
