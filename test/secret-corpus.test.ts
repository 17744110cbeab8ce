import { describe, expect, it } from 'vitest';
import { findSecrets, fitsRow } from '../scanner/secrets/secret-scan.ts';
import type { SecretRule } from '../scanner/secrets/secret-rule.ts';
import { SECRET_RULES } from '../scanner/secrets/secret-rules.ts';
import {
  formatCases,
  formatMisfits,
  formatNegatives,
  type GeneratedCase,
  hostCases,
  knowsFormat,
} from './support/generated-secrets.ts';

const tail = (secret: string) => secret.slice(-(secret.length >= 8 ? 4 : Math.floor(secret.length / 2)));

/** What a preview shows of a value: the key after its `Name=` for a row whose credential is the pair's value. */
function secretPart(kind: GeneratedCase['kind'], secret: string): string {
  const rule: SecretRule = SECRET_RULES[kind];
  if (!rule.previewBody) return secret;
  const name = (rule.formats ?? [])
    .map((format) => format[0])
    .find((lead) => typeof lead === 'string' && secret.startsWith(lead));
  return typeof name === 'string' ? secret.slice(name.length) : secret;
}

/** The cases not reported as exactly one credential of their kind, previewed by its own length and last characters. */
async function missesOf(cases: GeneratedCase[]): Promise<string[]> {
  const missed: string[] = [];
  for (const { kind, secret: whole, code, what } of cases) {
    const secret = secretPart(kind, whole);
    const found = await findSecrets(code);
    const hit = found.find(
      (f) =>
        f.kind === kind &&
        f.length === secret.length &&
        f.preview.endsWith(`…${tail(secret)}`) &&
        secret.startsWith(f.preview.split('…')[0]!),
    );
    if (!hit || found.length !== 1) missed.push(`${what}: ${JSON.stringify(found)}`);
  }
  return missed;
}

describe('the generated corpus of the rule table', () => {
  it("finds every value that walks a row's format bounds, as that row's kind, previewed by its own last characters", async () => {
    const cases = formatCases();
    expect(cases.length).toBeGreaterThan(250);
    expect(await missesOf(cases)).toEqual([]);
  });

  it("reports no placeholder, no value one short, with a wrong prefix, a character outside its alphabet or a ? inside, beside the row's own host", async () => {
    const wrong: string[] = [];
    const cases = [...formatNegatives(), ...formatMisfits()];
    expect(cases.length).toBeGreaterThan(500);
    for (const { kind, code, what } of cases) {
      const found = await findSecrets(code);
      // Not the row's key, not an unnamed credential beside its host, and never a slice with a ? in view.
      if (found.some((f) => f.kind === kind || f.kind === 'api_credential' || f.preview.includes('?')))
        wrong.push(`${what}: ${JSON.stringify(found)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("finds a key of no known format beside the host of a row that knows no format, named after the row's vendor", async () => {
    const cases = hostCases().filter(({ kind }) => !knowsFormat(SECRET_RULES[kind]));
    expect(cases.length).toBeGreaterThan(150);
    expect(await missesOf(cases)).toEqual([]);
  });

  it("reports nothing for a key of no known format beside the host of a row whose vendor's format it fails", async () => {
    // A drawn key that happens to fit the vendor's format (Cohere's 40 characters) is that vendor's key.
    const cases = hostCases().filter(({ kind, secret }) => knowsFormat(SECRET_RULES[kind]) && !fitsRow(kind, secret));
    expect(cases.length).toBeGreaterThan(150);
    const reported: string[] = [];
    for (const { code, what } of cases) {
      const found = await findSecrets(code);
      if (found.length > 0) reported.push(`${what}: ${JSON.stringify(found)}`);
    }
    expect(reported).toEqual([]);
  });

  it('rates keys that spend money or read customer data CRITICAL, whichever table row they come from', () => {
    for (const kind of [
      'openrouter',
      'mistral',
      'mollie',
      'resend',
      'brevo',
      'mailgun',
      'postmark',
      'sendgrid',
      'neon',
      'appwrite',
      'hubspot',
      'google_ai',
      'live_secret_key',
    ] as const)
      expect(SECRET_RULES[kind].severity, kind).toBe('CRITICAL');
    expect(SECRET_RULES.api_credential.severity).toBe('HIGH');
  });
});
