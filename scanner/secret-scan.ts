import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { OWN_SECRET_RULES } from './secret-rules.ts';
import { kindOfRule, type SecretKind } from './secret-kinds.ts';

/** A credential found in client code, already redacted: the secret itself never leaves findSecrets. */
export interface RedactedSecret {
  kind: SecretKind;
  /** At most the first 8 and the last 4 characters, e.g. `sk_live_…a9Qz`. */
  preview: string;
  length: number;
}

const CONFIG: SecretLintCoreConfig = {
  rules: [
    {
      id: '@secretlint/secretlint-rule-preset-recommend',
      rule: recommendedPreset,
      // A site's own comments must not switch detection off for its code.
      rules: [{ id: '@secretlint/secretlint-rule-filter-comments', disabled: true }],
    },
    ...OWN_SECRET_RULES.map((rule) => ({ id: rule.meta.id, rule })),
  ],
};

/**
 * Documentation examples and placeholders: AWS's EXAMPLE keys, runs of x, "your-…-here", template
 * markers and values with hardly any distinct characters are no one's live credential.
 */
const PLACEHOLDER = /EXAMPLE|x{6,}|X{6,}|\*{4,}|\.\.\.|…|<[^>]*>|\$\{|\{\{|your[-_ ]?(api[-_ ]?)?(key|token|secret)|placeholder|dummy|redacted|changeme|replace[-_]?me|\/\/(user(name)?|root|admin):(pass(word)?|secret|changeme)@/i;

function isPlaceholder(secret: string): boolean {
  if (PLACEHOLDER.test(secret)) return true;
  const body = secret.replace(/^[a-z]+(_[a-z]+)*_/i, '');
  return new Set(body).size < 8;
}

/** At most the first 8 and the last 4 characters, fewer for short secrets, so no more than a third shows. */
export function redact(secret: string): string {
  const head = Math.min(8, Math.floor(secret.length / 4));
  const tail = Math.min(4, Math.floor(secret.length / 8));
  return `${secret.slice(0, head)}…${tail > 0 ? secret.slice(-tail) : ''}`;
}

/** Credentials in one script by the maintained rule set plus the scanner's own rules, one per kind and value. */
export async function findSecrets(content: string): Promise<RedactedSecret[]> {
  const result = await lintSource({
    source: { filePath: 'client-code.js', content, ext: '.js', contentType: 'text' },
    options: { config: CONFIG, maskSecrets: true, noPhysicFilePath: true },
  });
  const found = new Map<string, RedactedSecret>();
  for (const message of result.messages) {
    const kind = kindOfRule(message.ruleId);
    if (!kind) continue;
    const secret = content.slice(message.range[0], message.range[1]);
    if (isPlaceholder(secret)) continue;
    const preview = redact(secret);
    found.set(`${kind} ${preview} ${secret.length}`, { kind, preview, length: secret.length });
  }
  return [...found.values()];
}
