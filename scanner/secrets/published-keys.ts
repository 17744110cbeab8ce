import { createHash } from 'node:crypto';

/**
 * Keys vendors publish for everyone to develop against: not credentials of the site that carries
 * them. Kept as SHA-256 digests, each with where the vendor publishes it, so this file is no list of
 * key-like strings for other scanners to flag.
 */
export const PUBLISHED_KEYS: ReadonlyArray<{ sha256: string; what: string; source: string }> = [
  {
    sha256: '0011cc25eb4320717494d2703e8cba85743e71b500283c21c8b88147992f9059',
    what: 'the Azure Storage emulator (Azurite) account key of devstoreaccount1',
    source: 'https://learn.microsoft.com/azure/storage/common/storage-use-azurite#well-known-storage-account-and-key',
  },
  {
    sha256: '2cafc0970149a84f3b9e62eaf169f36f59907a3b3e31f7b82e68c69cd27f7326',
    what: "Stripe's sample test-mode secret key in its API reference",
    source: 'https://docs.stripe.com/keys#obtain-api-keys',
  },
  {
    sha256: 'f5e95c9954635b65acab57e6d5ea663eb900f06dc8794a90358f5abb1c77d4e0',
    what: "reCAPTCHA v2's test secret key (every verification passes)",
    source:
      'https://developers.google.com/recaptcha/docs/faq#id-like-to-run-automated-tests-with-recaptcha.-what-should-i-do',
  },
  {
    sha256: '0fff9ee671b05ea25f58ed9584635fad2558e23c031003fd52d393bff5973fb0',
    what: "hCaptcha's test secret key",
    source: 'https://docs.hcaptcha.com/#integration-testing-test-keys',
  },
  ...[
    'fb8f35129df87662c650ada12fd614f1b58dce4a37fdd7589ba3a6b9a78c0aae',
    '1e3e58656012d861e23deae64f177673d7b86a9c55fe1d5d10b94e3c9755d168',
    '841b4f5b0b34e19ada74f47a88831efbb909008ceea4430d61449c1874923f83',
  ].map((sha256) => ({
    sha256,
    what: "Cloudflare Turnstile's dummy secret keys (passes, fails, already spent)",
    source: 'https://developers.cloudflare.com/turnstile/troubleshooting/testing/',
  })),
];

const DIGESTS = new Set(PUBLISHED_KEYS.map((key) => key.sha256));

/** Whether a value is a key its vendor publishes for development (the whole value, or the secret part given). */
export const isPublishedKey = (value: string) => DIGESTS.has(createHash('sha256').update(value).digest('hex'));
