import { readFileSync } from 'node:fs';
import AjvDraft04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

// Every SARIF log is validated against the official OASIS schema (test/data/sarif/README.md).
const schema = JSON.parse(readFileSync(new URL('../data/sarif/sarif-schema-2.1.0.json', import.meta.url), 'utf8'));
// Both are CommonJS modules whose class and function are their default export.
const ajv = new AjvDraft04Module.default({ allErrors: true, strict: false });
addFormatsModule.default(ajv);
const validate = ajv.compile(schema);
export const expectValidSarif = (log: unknown) => {
  const valid = validate(log);
  expect(valid ? [] : validate.errors).toEqual([]);
};
