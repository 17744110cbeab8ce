import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from './support/api.ts';
import { fuzz, type FuzzDocument, type FuzzTarget } from './fuzz/fuzzer.ts';
import { fuzzTarget } from './fuzz/target.ts';

// A short run of `npm run fuzz`: requests derived from the OpenAPI document and mutated, over REST
// and /trpc. A fixed seed keeps it repeatable; the full run takes a random one.
let api: TestApi;
let target: FuzzTarget;
let document: FuzzDocument;

beforeAll(async () => {
  ({ api, target, document } = await fuzzTarget());
});
afterAll(async () => api.close());

describe('fuzzing from the OpenAPI document', () => {
  // About 16 s alone; a loaded 2-core CI machine has needed more than the default 30 s.
  it('answers 1,500 mutated requests without a single 5xx, staying healthy', { timeout: 120_000 }, async () => {
    const report = await fuzz(target, document, { requests: 1_500, concurrency: 8, seed: 20261122 });
    expect(report.serverErrors).toEqual([]);
    expect(report.requests).toBe(1_500);
    const statuses = Object.keys(report.histogram).map(Number);
    expect(statuses.every((status) => status >= 200 && status < 500)).toBe(true);
    // The run reaches the procedures, not only the validation in front of them.
    expect(statuses).toEqual(expect.arrayContaining([200, 201, 400, 401, 404]));
    expect((await api.call('GET', '/healthz')).status).toBe(200);
  });
});
