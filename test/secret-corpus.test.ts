import { describe, expect, it } from 'vitest';
import { findSecrets } from '../scanner/secrets/secret-scan.ts';
import { SECRET_RULES } from '../scanner/secrets/secret-rules.ts';
import { formatCases, formatNegatives, type GeneratedCase, hostCases } from './support/generated-secrets.ts';

const tail = (secret: string) => secret.slice(-(secret.length >= 16 ? 4 : Math.floor(secret.length / 4)));

/** The cases not reported as exactly one credential of their kind, previewed by its own length and last characters. */
async function missesOf(cases: GeneratedCase[]): Promise<string[]> {
  const missed: string[] = [];
  for (const { kind, secret, code, what } of cases) {
    const found = await findSecrets(code);
    const hit = found.find(
      (f) => f.kind === kind && f.length === secret.length && f.preview.endsWith(`…${tail(secret)}`),
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

  it('reports no placeholder and no value shorter than the format as the row', async () => {
    const wrong: string[] = [];
    for (const { kind, code, what } of formatNegatives()) {
      const found = await findSecrets(code);
      if (found.some((f) => f.kind === kind)) wrong.push(`${what}: ${JSON.stringify(found)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("finds a key of no known format beside each host a row names, in each credential position, named after the row's vendor", async () => {
    const cases = hostCases();
    expect(cases.length).toBeGreaterThan(300);
    // Cohere's row knows its 40-character keys by their name: found without the host, still as Cohere.
    expect(await missesOf(cases)).toEqual([]);
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
