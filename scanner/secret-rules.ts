import type { SecretLintRuleCreator, SecretLintSourceCode } from '@secretlint/types';
import { decodeJwtPayload, JWT_PATTERN } from './jwt.ts';

/**
 * What the recommended preset lacks for client code, as secretlint rules so one engine runs them
 * all: Stripe secret and restricted keys (the preset has no Stripe rule) and Supabase keys that
 * bypass row-level security (`sb_secret_…` and legacy JWTs whose role is service_role).
 */
function patternRule(id: string, description: string, find: (content: string) => Iterable<[start: number, end: number]>): SecretLintRuleCreator {
  const messages = { FOUND: { en: () => `found ${description}` } };
  return {
    messages,
    meta: { id, type: 'scanner', recommended: true, supportedContentTypes: ['text'] },
    create(context) {
      const t = context.createTranslator(messages);
      return {
        file(source: SecretLintSourceCode) {
          for (const range of find(source.content)) context.report({ message: t('FOUND'), range });
        },
      };
    },
  };
}

function* matches(content: string, pattern: RegExp): Iterable<[number, number]> {
  for (const match of content.matchAll(pattern)) yield [match.index, match.index + match[0].length];
}

// Stripe keys are sk_/rk_ + mode + 24 to 247 characters (docs.stripe.com/keys).
const STRIPE_LIVE = /\b[sr]k_live_[0-9A-Za-z]{24,247}\b/g;
const STRIPE_TEST = /\b[sr]k_test_[0-9A-Za-z]{24,247}\b/g;
// Supabase API keys of 2025: sb_secret_ followed by a random part (supabase.com/docs/guides/api/api-keys).
const SUPABASE_SECRET = /\bsb_secret_[0-9A-Za-z_-]{20,}/g;

function* serviceRoleJwts(content: string): Iterable<[number, number]> {
  for (const match of content.matchAll(JWT_PATTERN)) {
    if (decodeJwtPayload(match[0])?.role === 'service_role') yield [match.index, match.index + match[0].length];
  }
}

export const OWN_SECRET_RULES: SecretLintRuleCreator[] = [
  patternRule('scanner/stripe-live', 'Stripe live secret key', (content) => matches(content, STRIPE_LIVE)),
  patternRule('scanner/stripe-test', 'Stripe test secret key', (content) => matches(content, STRIPE_TEST)),
  patternRule('scanner/supabase-secret', 'Supabase secret key', function* (content) {
    yield* matches(content, SUPABASE_SECRET);
    yield* serviceRoleJwts(content);
  }),
];
