import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCa } from '../test/support/test-ca.ts';
import { benchScan } from './scan-bench.ts';
import { printTable } from './stats.ts';

// Fixture sites need the test CA that the test suite makes at start.
const dir = mkdtempSync(join(tmpdir(), 'scanner-bench-ca-'));
const ca = createCa();
writeFileSync(join(dir, 'ca.pem'), ca.certPem);
writeFileSync(join(dir, 'ca-key.pem'), ca.keyPem);
process.env.TEST_CA_DIR = dir;

console.log(`Benchmark run ${new Date().toISOString()} on ${(await import('node:os')).cpus().length} cores, Node ${process.version}`);
printTable([...(await benchScan())]);
