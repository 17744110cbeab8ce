import type { Severity } from './vocabulary.ts';

/**
 * Every kind of credential the scanner reports in client code: its Dutch name, its severity, how to
 * revoke it, and the secretlint rules (and message ids, where one rule finds several kinds) that find it. CRITICAL are
 * keys that spend money or write data; the rest are HIGH.
 */
export const SECRET_KINDS = {
  stripe: { label: 'Stripe secret key', severity: 'CRITICAL', rotate: 'Rol de sleutel in het Stripe-dashboard (Developers > API keys > Roll key)', rules: ['scanner/stripe-live'] },
  openai: { label: 'OpenAI API-sleutel', severity: 'CRITICAL', rotate: 'Trek de sleutel in op platform.openai.com (API keys) en maak een nieuwe', rules: ['@secretlint/secretlint-rule-openai'] },
  anthropic: { label: 'Anthropic API-sleutel', severity: 'CRITICAL', rotate: 'Trek de sleutel in in de Anthropic Console (API Keys) en maak een nieuwe', rules: ['@secretlint/secretlint-rule-anthropic'] },
  aws: { label: 'AWS-toegangssleutel', severity: 'CRITICAL', rotate: 'Deactiveer en verwijder de toegangssleutel in IAM en controleer CloudTrail op misbruik', rules: ['@secretlint/secretlint-rule-aws'] },
  supabase_secret: { label: 'Supabase secret key', severity: 'CRITICAL', rotate: 'Trek de sleutel in onder Project Settings > API Keys (of roteer het JWT-secret bij een service_role-sleutel)', rules: ['scanner/supabase-secret'] },
  private_key: { label: 'privésleutel', severity: 'CRITICAL', rotate: 'Trek het certificaat of de sleutel in en maak een nieuw sleutelpaar', rules: ['@secretlint/secretlint-rule-privatekey'] },
  gcp: { label: 'Google Cloud-serviceaccountsleutel', severity: 'CRITICAL', rotate: 'Verwijder de serviceaccountsleutel in Google Cloud IAM en maak zo nodig een nieuwe', rules: ['@secretlint/secretlint-rule-gcp'] },
  database_url: { label: 'databaseverbinding met wachtwoord', severity: 'CRITICAL', rotate: 'Wijzig het databasewachtwoord en beperk welke adressen verbinding mogen maken', rules: ['@secretlint/secretlint-rule-database-connection-string'] },
  stripe_test: { label: 'Stripe test secret key', severity: 'HIGH', rotate: 'Rol de testsleutel in het Stripe-dashboard', rules: ['scanner/stripe-test'] },
  github: { label: 'GitHub-token', severity: 'HIGH', rotate: 'Trek het token in onder GitHub Settings > Developer settings', rules: ['@secretlint/secretlint-rule-github'] },
  gitlab: { label: 'GitLab-token', severity: 'HIGH', rotate: 'Trek het token in onder GitLab Access Tokens', rules: ['@secretlint/secretlint-rule-gitlab'] },
  slack: { label: 'Slack-token of webhook', severity: 'HIGH', rotate: 'Trek het token of de webhook-URL in via de Slack-app-instellingen', rules: ['@secretlint/secretlint-rule-slack'] },
  sendgrid: { label: 'SendGrid API-sleutel', severity: 'HIGH', rotate: 'Verwijder de sleutel in SendGrid (Settings > API Keys) en maak een nieuwe', rules: ['@secretlint/secretlint-rule-sendgrid'] },
  npm: { label: 'npm-token', severity: 'HIGH', rotate: 'Trek het token in op npmjs.com (Access Tokens)', rules: ['@secretlint/secretlint-rule-npm'] },
  basic_auth: { label: 'URL met gebruikersnaam en wachtwoord', severity: 'HIGH', rotate: 'Wijzig het wachtwoord van dit account', rules: ['@secretlint/secretlint-rule-basicauth'] },
  other_api_token: {
    label: 'API-token',
    severity: 'HIGH',
    rotate: 'Trek het token in bij de dienst die het uitgaf',
    rules: [
      '@secretlint/secretlint-rule-1password',
      '@secretlint/secretlint-rule-databricks',
      '@secretlint/secretlint-rule-docker',
      '@secretlint/secretlint-rule-figma',
      '@secretlint/secretlint-rule-grafana',
      '@secretlint/secretlint-rule-groq',
      '@secretlint/secretlint-rule-hashicorp-vault',
      '@secretlint/secretlint-rule-huggingface',
      '@secretlint/secretlint-rule-linear',
      '@secretlint/secretlint-rule-notion',
      '@secretlint/secretlint-rule-shopify',
      '@secretlint/secretlint-rule-vercel',
    ],
  },
} as const satisfies Record<string, { label: string; severity: Severity; rotate: string; rules: readonly string[] }>;

export type SecretKind = keyof typeof SECRET_KINDS;

const KIND_BY_RULE = new Map<string, SecretKind>(
  (Object.entries(SECRET_KINDS) as Array<[SecretKind, (typeof SECRET_KINDS)[SecretKind]]>).flatMap(([kind, entry]) => entry.rules.map((rule) => [rule, kind] as const)),
);

/** The kind a secretlint rule's report belongs to; null for a rule the table does not know. */
export function kindOfRule(ruleId: string): SecretKind | null {
  return KIND_BY_RULE.get(ruleId) ?? null;
}

/** The finding type of a kind: one per kind, so a script leaking two kinds gets two findings. */
export type SecretFindingType = `client_secret_${SecretKind}`;
export const secretFindingType = (kind: SecretKind): SecretFindingType => `client_secret_${kind}`;
