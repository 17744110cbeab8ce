import { findPemBlocks } from './pem-blocks.ts';
import {
  base62Crc32Valid,
  isDiscordBotToken,
  isMapboxToken,
  isRemoteDatabaseUrl,
  isServiceRoleJwt,
  mixesCases,
} from './secret-structure.ts';
import { JWT_PATTERN } from './jwt.ts';
import type { SecretRule } from './secret-rule.ts';
import { chars } from './token-format.ts';
import { NEUTRAL_SHARED_RULES, SHARED_PREFIX_RULES, VENDOR_RULES, vendorNear } from './vendor-rules.ts';

/**
 * Every kind of credential the scanner reports in client code, one row per kind: its Dutch name,
 * severity and how to revoke it, and how it is found. CRITICAL are keys that spend money, write data
 * or own an account; the rest HIGH.
 *
 * How a row finds its kind:
 * - `keywords`: lowercase literals, at least one of which a script must contain before the row's
 *   patterns run over it (most scripts contain none, as in gitleaks).
 * - `patterns`: global regexes; the named group `secret` is the credential (default: the match and
 *   any group read behind it) and `body` its random part, which the placeholder filter judges (default: the credential
 *   after its prefix). Every quantifier is bounded and every match starts where a token starts, so
 *   a pattern stays linear on hostile text. Where a format has a literal, the pattern starts with it
 *   (a look-behind after it), which lets the regex engine skip ahead to it.
 * - `find`: for formats a bounded regex cannot span (PEM blocks).
 * - `valid`: the structural check of formats that have one (checksums, JWT and token structure).
 * - `near`: context a shared format needs (for the row, or for one pattern); each must occur
 *   within `within` characters of the match, or anywhere in the script without it.
 * - `entropy`: the least Shannon entropy (bits per character) of the body; 0 for passwords.
 * - `formats`: formats as data, compiled into patterns (most vendors' rows, in vendor-rules.ts).
 * - `hosts`: API hosts that make a key-like value in a credential position beside them this kind.
 * - `secretlint`: kinds found by rules of secretlint's recommended preset, which is right for them.
 *
 * `source` names where the format is documented. Formats are facts learned from the vendors' docs and
 * from gitleaks, TruffleHog, Nosey Parker and Kingfisher; the patterns are the scanner's own.
 * Severity follows what a key can do (CAPABILITY_SEVERITY): keys that spend money or read customers'
 * data are CRITICAL.
 */
const PRIVATE_KEY_NEAR_SERVICE_ACCOUNT = { pattern: /service_account/, within: 4000 };
const GOOGLE_AI_CLIENT =
  /generativelanguage\.googleapis\.com|@google\/genai|@google\/generative-ai|google-genai-sdk|genai-js\//;

/** The table's order is its priority: where two rows match the same text, the earlier row's kind is reported. */
export const SECRET_RULES = {
  ...SHARED_PREFIX_RULES,
  stripe: {
    label: 'Stripe secret key',
    severity: 'CRITICAL',
    revoke: 'Rol de sleutel in het Stripe-dashboard (Developers > API keys > Roll key)',
    source: 'https://docs.stripe.com/keys',
    keywords: ['k_live_'],
    patterns: [/(?<![\w-])[rs]k_live_(?<body>[0-9A-Za-z]{24,247})(?![0-9A-Za-z])/g],
    // Stripe's random part mixes cases; a lower-case sk_live_ key (Paystack's hex) is another vendor's.
    valid: (secret) => secret.startsWith('rk_') || /[A-Z]/.test(secret.slice(8)),
    hosts: ['api.stripe.com'],
  },
  stripe_test: {
    label: 'Stripe test secret key',
    severity: 'HIGH',
    revoke: 'Rol de testsleutel in het Stripe-dashboard',
    source: 'https://docs.stripe.com/keys',
    keywords: ['k_test_'],
    patterns: [/(?<![\w-])[rs]k_test_(?<body>[0-9A-Za-z]{24,247})(?![0-9A-Za-z])/g],
  },
  openai: {
    label: 'OpenAI API-sleutel',
    severity: 'CRITICAL',
    revoke: 'Trek de sleutel in op platform.openai.com (API keys) en maak een nieuwe',
    source: 'https://platform.openai.com/docs/api-reference/authentication',
    keywords: ['t3blbkfj'],
    // Project, service-account, admin and legacy user keys all carry "T3BlbkFJ" (base64 of "OpenAI").
    patterns: [/(?<![\w-])sk-(?:(?:proj|svcacct|admin|None)-)?(?<body>[\w-]{20,200}?T3BlbkFJ[\w-]{20,200})(?![\w-])/g],
    hosts: ['api.openai.com'],
  },
  anthropic: {
    label: 'Anthropic API-sleutel',
    severity: 'CRITICAL',
    revoke: 'Trek de sleutel in in de Anthropic Console (API Keys) en maak een nieuwe',
    source: 'https://docs.anthropic.com/en/api/getting-started',
    keywords: ['sk-ant-'],
    // API keys (api03) and Admin API keys (admin01): 93 random characters and "AA".
    patterns: [/(?<![\w-])sk-ant-(?:api|admin|oat|ort)\d\d-(?<body>[\w-]{80,120})AA(?![\w-])/g],
    hosts: ['api.anthropic.com'],
  },
  xai: {
    label: 'xAI API-sleutel',
    severity: 'CRITICAL',
    revoke: 'Trek de sleutel in in de xAI Console (API Keys) en maak een nieuwe',
    source: 'https://docs.x.ai/docs/overview',
    keywords: ['xai-'],
    patterns: [/(?<![\w-])xai-(?<body>[0-9A-Za-z_]{80})(?![\w-])/g],
    hosts: ['api.x.ai'],
  },
  replicate: {
    label: 'Replicate API-token',
    severity: 'CRITICAL',
    revoke: 'Trek het token in op replicate.com/account/api-tokens',
    source: 'https://replicate.com/docs/topics/security/api-tokens',
    keywords: ['r8_'],
    patterns: [/(?<![\w-])r8_(?<body>[\w-]{37})(?![\w-])/g],
    hosts: ['api.replicate.com'],
  },
  deepseek: {
    label: 'DeepSeek API-sleutel',
    severity: 'CRITICAL',
    revoke: 'Verwijder de sleutel op platform.deepseek.com (API keys) en maak een nieuwe',
    source: 'https://api-docs.deepseek.com/',
    keywords: ['sk-'],
    // Alibaba's Model Studio issues the same format: only DeepSeek's name or host makes it DeepSeek's.
    patterns: [/(?<![\w-])sk-(?<body>[0-9a-f]{32})(?![\w-])/g],
    near: vendorNear('deepseek'),
    hosts: ['api.deepseek.com'],
  },
  cohere: {
    label: 'Cohere API-sleutel',
    severity: 'CRITICAL',
    revoke: 'Verwijder de sleutel in het Cohere-dashboard (API Keys) en maak een nieuwe',
    source: 'https://docs.cohere.com/reference/about',
    keywords: ['cohere'],
    // 40 characters without a prefix: only next to the word "cohere", and random (hashes are hex).
    patterns: [/(?<![\w-])(?<body>[0-9A-Za-z]{40})(?![\w-])/g],
    near: [{ pattern: /cohere|CO_API_KEY/i, within: 200 }],
    valid: mixesCases,
    hosts: ['api.cohere.ai', 'api.cohere.com'],
  },
  google_ai: {
    label: 'Google AI (Gemini) API-sleutel',
    severity: 'CRITICAL',
    revoke:
      'Verwijder of beperk de sleutel in Google AI Studio of de Google Cloud Console (APIs & Services > Credentials)',
    source: 'https://ai.google.dev/gemini-api/docs/api-key',
    keywords: ['aiza'],
    // AIza keys are public by design for Maps and Firebase; beside a Gemini client the same key spends money.
    patterns: [/(?<![\w-])AIza(?<body>[\w-]{35})(?![\w-])/g],
    near: [{ pattern: GOOGLE_AI_CLIENT }],
    hosts: ['generativelanguage.googleapis.com', 'aiplatform.googleapis.com'],
  },
  aws: {
    label: 'AWS-toegangssleutel',
    severity: 'CRITICAL',
    revoke: 'Deactiveer en verwijder de toegangssleutel in IAM en controleer CloudTrail op misbruik',
    source: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/security-creds.html',
    // Key ids run at their prefixes only (formats are anchored); the secret needs its name.
    formats: [
      [['AKIA', 'ASIA', 'ABIA', 'ACCA'], chars('base32', 16)],
      ['A3T', chars('upper36', 1), chars('base32', 16)],
    ],
    patterns: [
      // The secret access key has no prefix: 40 base64 characters right after its name.
      {
        regex:
          /(?:secret_?access_?key|aws_?secret(?:_?access)?_?key)["'`]?\s{0,4}[:=]{1,2}>?\s{0,4}["'`](?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
        near: [
          {
            pattern: /secret_?access|aws_?secret/i,
            words: ['secretaccess', 'secret_access', 'awssecret', 'aws_secret'],
          },
        ],
      },
    ],
  },
  supabase_secret: {
    label: 'Supabase secret key',
    severity: 'CRITICAL',
    revoke:
      'Trek de sleutel in onder Project Settings > API Keys (of roteer het JWT-secret bij een service_role-sleutel)',
    source: 'https://supabase.com/docs/guides/api/api-keys',
    patterns: [/(?<![\w-])sb_secret_(?<body>[\w-]{20,100})(?![\w-])/g, JWT_PATTERN],
    valid: (secret) => secret.startsWith('sb_secret_') || isServiceRoleJwt(secret),
  },
  supabase_management: {
    label: 'Supabase-toegangstoken (beheer)',
    severity: 'CRITICAL',
    revoke: 'Trek het token in op supabase.com/dashboard/account/tokens',
    source: 'https://supabase.com/docs/reference/api/introduction',
    keywords: ['sbp_'],
    patterns: [/(?<![\w-])sbp_(?:oauth_|v0_)?(?<body>[0-9a-f]{40})(?![\w-])/g],
  },
  gcp: {
    label: 'Google Cloud-serviceaccountsleutel',
    severity: 'CRITICAL',
    revoke: 'Verwijder de serviceaccountsleutel in Google Cloud IAM en maak zo nodig een nieuwe',
    source: 'https://cloud.google.com/iam/docs/keys-create-delete',
    keywords: ['service_account'],
    // The private key of a service-account JSON file: reported as the account's key, not a bare key.
    find: findPemBlocks,
    near: [PRIVATE_KEY_NEAR_SERVICE_ACCOUNT],
  },
  private_key: {
    label: 'privésleutel',
    severity: 'CRITICAL',
    revoke: 'Trek het certificaat of de sleutel in en maak een nieuw sleutelpaar',
    source:
      'https://www.rfc-editor.org/rfc/rfc7468 (PKCS #1, #8, SEC 1, OpenSSH); https://www.rfc-editor.org/rfc/rfc4880 (OpenPGP)',
    keywords: ['private key'],
    find: findPemBlocks,
  },
  database_url: {
    label: 'databaseverbinding met wachtwoord',
    severity: 'CRITICAL',
    revoke: 'Wijzig het databasewachtwoord en beperk welke adressen verbinding mogen maken',
    source:
      'https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING-URIS; https://www.mongodb.com/docs/manual/reference/connection-string/',
    keywords: [
      'postgres',
      'mysql',
      'mariadb',
      'mongodb',
      'redis',
      'amqp',
      'mssql',
      'sqlserver',
      'clickhouse',
      'cockroachdb',
      'redshift',
    ],
    patterns: [
      /:\/\/(?<=(?<![\w+])(?<scheme>postgres(?:ql)?|redshift|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|clickhouse|cockroachdb)(?:\+\w{1,20})?:\/\/)[^\s:@/"'`\\]{1,128}:(?<body>[^\s@/"'`\\]{1,256})@(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?(?:,[A-Za-z0-9.-]{1,253}(?::\d{1,5})?){0,15}(?:\/[^\s"'`\\?#@]{0,255})?(?:\?[^\s"'`\\#]{0,512})?/g,
    ],
    valid: isRemoteDatabaseUrl,
    entropy: 0,
    // The password is the credential: its last characters, not the query's, end the preview.
    previewBody: true,
  },
  twilio: {
    label: 'Twilio API-sleutel of auth token',
    severity: 'CRITICAL',
    revoke: 'Verwijder de API-sleutel of roteer het auth token in de Twilio Console (Account > API keys & tokens)',
    source: 'https://www.twilio.com/docs/iam/api-keys; https://www.twilio.com/docs/iam/api/authtoken',
    patterns: [
      /SK(?<![0-9A-Za-z]SK)(?<body>[0-9a-f]{32})(?![0-9A-Za-z])/g,
      // The auth token is 32 hex characters with nothing of its own: only next to the account SID it belongs to.
      {
        regex: /(?<![0-9A-Za-z])(?<body>[0-9a-f]{32})(?![0-9A-Za-z])/g,
        near: [{ pattern: /AC(?<![0-9A-Za-z]AC)[0-9a-f]{32}(?![0-9A-Za-z])/, within: 300 }],
      },
    ],
  },
  mailgun: {
    label: 'Mailgun API-sleutel',
    severity: 'CRITICAL',
    revoke: 'Verwijder de sleutel in Mailgun (Settings > API Security) en maak een nieuwe',
    source: 'https://documentation.mailgun.com/docs/mailgun/user-manual/get-started/#primary-account-api-key',
    patterns: [
      /key-(?<![\w-]key-)(?<body>[0-9a-f]{32})(?![\w-])/g,
      // The newer keys: 32, 8 and 8 hex characters, found from their first dash.
      /-(?<=(?<![\w-])(?<body>[0-9a-f]{32})-)[0-9a-f]{8}-[0-9a-f]{8}(?![\w-])/g,
    ],
    hosts: ['api.mailgun.net', 'api.eu.mailgun.net'],
  },
  mailchimp: {
    label: 'Mailchimp API-sleutel',
    severity: 'CRITICAL',
    revoke: 'Trek de sleutel in in Mailchimp (Profile > Extras > API keys)',
    source: 'https://mailchimp.com/developer/marketing/guides/quick-start/',
    keywords: ['-us'],
    // Found by its `-us<n>` suffix, the 32 hex characters read behind it.
    patterns: [/-us(?<=(?<![\w-])(?<body>[0-9a-f]{32})-us)\d{1,2}(?![\w-])/g],
    hosts: ['api.mailchimp.com'],
  },
  postmark: {
    label: 'Postmark server- of accounttoken',
    severity: 'CRITICAL',
    revoke: 'Genereer het token opnieuw in Postmark (Server > API Tokens)',
    source: 'https://postmarkapp.com/developer/api/overview#authentication',
    keywords: ['postmark'],
    patterns: [/(?<![\w-])(?<body>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![\w-])/g],
    near: [{ pattern: /postmark/i, within: 600 }],
    hosts: ['api.postmarkapp.com'],
  },
  sendgrid: {
    label: 'SendGrid API-sleutel',
    severity: 'CRITICAL',
    revoke: 'Verwijder de sleutel in SendGrid (Settings > API Keys) en maak een nieuwe',
    source: 'https://www.twilio.com/docs/sendgrid/ui/account-and-settings/api-keys',
    keywords: ['sg.'],
    // Both parts are base64url: a dash in the first part is as common as in the second.
    patterns: [/(?<![\w-])SG\.(?<body>[\w-]{22}\.[\w-]{43})(?![\w-])/g],
    hosts: ['api.sendgrid.com'],
  },
  discord: {
    label: 'Discord-bottoken of webhook',
    severity: 'HIGH',
    revoke:
      'Reset het bottoken in het Discord Developer Portal (Bot > Reset Token) of verwijder de webhook in de kanaalinstellingen',
    source: 'https://discord.com/developers/docs/reference#authentication',
    patterns: [
      /(?<![\w-])[MNO][\w-]{23,27}\.[\w-]{6}\.(?<body>[\w-]{27,40})(?![\w-])/g,
      /https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api\/webhooks\/\d{17,20}\/(?<body>[\w-]{60,68})(?![\w-])/g,
    ],
    valid: (secret) => secret.startsWith('https://') || isDiscordBotToken(secret),
  },
  telegram: {
    label: 'Telegram-bottoken',
    severity: 'HIGH',
    revoke: 'Trek het token in bij @BotFather (/revoke)',
    source: 'https://core.telegram.org/bots/api#authorizing-your-bot',
    keywords: [':a'],
    // Also inside the API's URL path, right after "/bot": api.telegram.org/bot<token>/sendMessage.
    // Bot tokens have 35 characters after the colon; shortened copies in docs and logs are still live-looking.
    // Found from ":A", the bot id read behind it.
    // Not the user-info of a URL (cloudinary://<id>:<secret>@…).
    patterns: [/:A(?<=(?:(?<![\w:/-])|(?<=\/bot))(?<id>\d{5,16}):A)(?<body>[\w-]{32,34})(?![\w-])/g],
    hosts: ['api.telegram.org'],
  },
  slack: {
    label: 'Slack-token of webhook',
    severity: 'HIGH',
    revoke: 'Trek het token of de webhook-URL in via de Slack-app-instellingen',
    source: 'https://api.slack.com/concepts/token-types',
    keywords: ['xox', 'xapp-', 'hooks.slack.com'],
    // Workspace and user ids are 8 to 14 digits; the random part is long. Placeholders ("xoxb-12345-abcd") have neither.
    patterns: [
      /(?<![\w-])xoxb-\d{8,14}-(?:\d{8,14}-)?(?<body>[0-9A-Za-z]{18,34})(?![\w-])/g,
      /(?<![\w-])xox[pe]-\d{8,14}-\d{8,14}-\d{8,14}-(?<body>[0-9A-Za-z]{28,34})(?![\w-])/g,
      /(?<![\w-])xox[ars]-(?:\d-)?(?:\d{8,14}-){0,3}(?<body>[0-9A-Za-z]{16,64})(?![\w-])/g,
      /(?<![\w.-])xoxe\.xox[bp]-\d-(?<body>[0-9A-Za-z]{140,180})(?![\w-])/g,
      /(?<![\w.-])xoxe-\d-(?<body>[0-9A-Za-z]{140,160})(?![\w-])/g,
      /(?<![\w-])xapp-\d-[0-9A-Z]{8,14}-\d{8,16}-(?<body>[0-9a-f]{64})(?![\w-])/g,
      /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/(?<body>[A-Za-z0-9+/]{43,120})(?![\w+/-])/g,
    ],
    // Beside Slack's API, a token must be one of these formats: a placeholder there is no credential.
    hosts: ['slack.com'],
  },
  algolia: {
    label: 'Algolia admin-API-sleutel',
    severity: 'CRITICAL',
    revoke: 'Genereer de admin-sleutel opnieuw in het Algolia-dashboard (Settings > API Keys)',
    source: 'https://www.algolia.com/doc/guides/security/api-keys/',
    keywords: ['algolia'],
    // Admin and search-only keys share one format; only the name before the key tells them apart.
    patterns: [/(?:admin|write)[^;{}]{0,80}?["'`](?<secret>[0-9a-z]{32})["'`]/gi],
    near: [{ pattern: /algolia/i }],
    byName: false,
  },
  mapbox: {
    label: 'Mapbox secret token',
    severity: 'HIGH',
    revoke: 'Verwijder het token op account.mapbox.com/access-tokens',
    source: 'https://docs.mapbox.com/accounts/guides/tokens/',
    keywords: ['sk.ey'],
    patterns: [/(?<![\w.-])sk\.eyJ[\w-]{10,300}\.(?<body>[\w-]{20,100})(?![\w-])/g],
    valid: isMapboxToken,
  },
  google_oauth: {
    label: 'Google OAuth-clientgeheim',
    severity: 'HIGH',
    revoke:
      'Voeg een nieuw clientgeheim toe en verwijder het oude in de Google Cloud Console (APIs & Services > Credentials)',
    source: 'https://developers.google.com/identity/protocols/oauth2',
    keywords: ['gocspx-', 'googleusercontent'],
    patterns: [
      /(?<![\w-])GOCSPX-(?<body>[\w-]{28})(?![\w-])/g,
      // Secrets from before 2021 have no prefix: 24 characters named as the secret, beside the client id.
      {
        regex: /(?<![\w-])[\w-]{24}(?![\w-])/g,
        near: [
          { pattern: /apps\.googleusercontent\.com/, within: 400 },
          { pattern: /client_?secret/i, within: 40 },
        ],
      },
    ],
    valid: (secret) => secret.startsWith('GOCSPX-') || mixesCases(secret),
  },
  google_access_token: {
    label: 'Google OAuth-toegangstoken',
    severity: 'HIGH',
    revoke: 'Trek het token in (https://oauth2.googleapis.com/revoke) en zoek uit hoe het in de code kwam',
    source: 'https://developers.google.com/identity/protocols/oauth2',
    keywords: ['ya29.'],
    patterns: [/(?<![\w.-])ya29\.(?<body>[\w-]{20,2048})(?![\w-])/g],
  },
  github: {
    label: 'GitHub-token',
    severity: 'HIGH',
    revoke: 'Trek het token in onder GitHub Settings > Developer settings',
    source: 'https://github.blog/security/application-security/behind-githubs-new-authentication-token-formats/',
    keywords: ['gh', 'github_pat_'],
    // Refresh tokens (ghr_, 76 characters) and the long installation-token form are longer than 36.
    patterns: [
      /(?<![\w-])gh[pousr]_[0-9A-Za-z]{36,255}(?![0-9A-Za-z])/g,
      /(?<![\w-])github_pat_[0-9A-Za-z]{22}_(?<body>[0-9A-Za-z]{59,250})(?![0-9A-Za-z])/g,
    ],
    // Only the 36-character form carries a checksum.
    issued: (secret) => secret.startsWith('github_pat_') || secret.length > 40 || base62Crc32Valid(secret),
    hosts: ['api.github.com'],
  },
  gitlab: {
    label: 'GitLab-token',
    severity: 'HIGH',
    revoke:
      'Trek het token in onder GitLab Access Tokens (of de runner, trigger of deploy-token-instellingen van het project)',
    source: 'https://docs.gitlab.com/security/tokens/#token-prefixes',
    keywords: ['gl', 'gr1348941'],
    patterns: [
      /(?<![\w-])gl(?:pat|rt|ptt|dt|ft|oas|soat|imt|cbt|ffct|agent|wt|cit)-(?<body>[\w-]{20,64})(?:\.\w{2}\.\w{7,10})?(?![\w-])/g,
      /(?<![\w-])GR1348941(?<body>[\w-]{20})(?![\w-])/g,
    ],
  },
  npm: {
    label: 'npm-token',
    severity: 'HIGH',
    revoke: 'Trek het token in op npmjs.com (Access Tokens)',
    source: 'https://github.blog/changelog/2021-09-23-npm-has-a-new-access-token-format/',
    keywords: ['npm_', '_authtoken', 'registry.npmjs.org'],
    patterns: [
      /(?<![\w-])npm_[0-9A-Za-z]{36}(?![0-9A-Za-z])/g,
      // Tokens from before 2021 are UUIDs: only beside npm's keyword or registry.
      {
        regex: /(?<![\w-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![\w-])/g,
        near: [{ pattern: /npm_?token|_authToken|registry\.npmjs\.org/i, within: 120 }],
      },
    ],
    issued: (secret) => !secret.startsWith('npm_') || base62Crc32Valid(secret),
  },
  posthog: {
    label: 'PostHog persoonlijke API-sleutel',
    severity: 'HIGH',
    revoke: 'Verwijder de sleutel in PostHog (Settings > Personal API keys)',
    source: 'https://posthog.com/docs/api#personal-api-keys',
    keywords: ['phx_'],
    patterns: [/(?<![\w-])phx_(?<body>[0-9A-Za-z_]{40,50})(?![\w-])/g],
  },
  sentry: {
    label: 'Sentry-authenticatietoken',
    severity: 'HIGH',
    revoke: 'Trek het token in in Sentry (User Settings > Auth Tokens of Organization Settings > Auth Tokens)',
    source: 'https://docs.sentry.io/account/auth-tokens/',
    keywords: ['sntry'],
    patterns: [
      /(?<![\w-])sntryu_(?<body>[0-9a-f]{64})(?![\w-])/g,
      /(?<![\w-])sntrys_eyJ[A-Za-z0-9+/=]{40,1000}_(?<body>[A-Za-z0-9+/=-]{40,50})(?![\w+/=-])/g,
    ],
  },
  basic_auth: {
    label: 'URL met gebruikersnaam en wachtwoord',
    severity: 'HIGH',
    revoke: 'Wijzig het wachtwoord van dit account',
    source: 'https://www.rfc-editor.org/rfc/rfc3986#section-3.2.1',
    secretlint: ['@secretlint/secretlint-rule-basicauth'],
  },
  ...VENDOR_RULES,
  ...NEUTRAL_SHARED_RULES,
  api_credential: {
    label: 'inloggegeven voor een API',
    severity: 'HIGH',
    revoke: 'Trek het inloggegeven in bij de dienst achter die host en maak zo nodig een nieuw',
    source:
      "The API host beside a value in a credential position (Authorization, x-api-key, apiKey, token, secret): the scanner's own rule",
  },
} as const satisfies Record<string, SecretRule>;

export type SecretKind = keyof typeof SECRET_RULES;
export const SECRET_KIND_NAMES = Object.keys(SECRET_RULES) as SecretKind[];

/** The finding type of a kind: one per kind, so a script leaking two kinds gets two findings. */
export type SecretFindingType = `client_secret_${SecretKind}`;
export const secretFindingType = (kind: SecretKind): SecretFindingType => `client_secret_${kind}`;
