import { describe, expect, it } from 'vitest';
import { findSecrets } from '../scanner/secrets/secret-scan.ts';
import { isPlaceholder } from '../scanner/secrets/secret-placeholders.ts';
import { SECRET_KIND_NAMES, SECRET_RULES } from '../scanner/secrets/secret-rules.ts';
import type { SecretRule } from '../scanner/secrets/secret-rule.ts';
import { base62Crc32Valid, isRemoteDatabaseUrl } from '../scanner/secrets/secret-structure.ts';
import { libraryBundles } from './support/client-code-sites.ts';
import { checksummed, inBundle, publicValues, secretSamples } from './support/secret-samples.ts';

const samples = secretSamples();

describe('the secret rule table', () => {
  it('has samples for every kind, and every row a label, a severity, a way to revoke and a source', () => {
    // Rows with formats or hosts get generated samples (secret-corpus.test.ts); the host rule has its own tests.
    const handWritten = SECRET_KIND_NAMES.filter((kind) => {
      const rule: SecretRule = SECRET_RULES[kind];
      return !rule.formats && !rule.hosts && kind !== 'api_credential';
    });
    expect(samples.map((s) => s.kind).sort()).toEqual(expect.arrayContaining(handWritten.sort()));
    for (const kind of SECRET_KIND_NAMES) {
      const rule = SECRET_RULES[kind];
      expect(rule.label && rule.revoke && rule.source, kind).toBeTruthy();
      expect(['CRITICAL', 'HIGH'], kind).toContain(rule.severity);
    }
  });

  describe.each(samples)('$kind', ({ kind, positives, negatives, placeholder }) => {
    it('finds every positive, as its own kind only, previewed from the credential itself', async () => {
      for (const { secret, code } of positives) {
        const found = await findSecrets(code);
        expect(
          found.map((f) => f.kind),
          secret.slice(0, 12),
        ).toEqual(found.map(() => kind));
        // A connection string's credential is its password: the preview ends in the password's own characters.
        const rule: SecretRule = SECRET_RULES[kind];
        // A SAS URL's is its signature.
        const credential = rule.previewBody
          ? (/:\/\/[^:@/]+:([^@/]+)@/.exec(secret) ?? /[?&]sig=([^&]+)/.exec(secret))![1]!
          : secret;
        const tail = credential.length >= 8 ? 4 : Math.floor(credential.length / 2);
        const hit = found.find(
          (f) => f.length === credential.length && f.preview.endsWith(`…${credential.slice(-tail)}`),
        );
        expect(hit, `${kind} ${secret.slice(0, 12)} in ${JSON.stringify(found)}`).toBeDefined();
        // The secret part's own first characters: never a scheme, a key's name, a port or a path.
        expect(credential.startsWith(hit!.preview.split('…')[0]!)).toBe(true);
        expect(hit!.preview.length).toBeLessThanOrEqual(13);
      }
    });

    it('reports none of the negatives and not the placeholder', async () => {
      for (const code of [...negatives, placeholder]) expect(await findSecrets(code), code.slice(0, 160)).toEqual([]);
    });
  });

  it('never reports values that are public by design', async () => {
    for (const code of publicValues()) expect(await findSecrets(code), code).toEqual([]);
  });

  it('reports nothing in real library builds', async () => {
    for (const bundle of libraryBundles()) expect(await findSecrets(bundle.code), bundle.name).toEqual([]);
  });

  it('reports a key and the secret of an AWS pair together, and the service_role JWT whatever its JSON spacing', async () => {
    const [aws] = samples.filter((s) => s.kind === 'aws');
    const pair = aws!.positives[1]!;
    expect((await findSecrets(pair.code)).map((f) => f.length).sort()).toEqual([20, 40]);
    const spaced = samples.find((s) => s.kind === 'supabase_secret')!.positives[2]!.secret;
    expect(spaced.split('.')[1]!.startsWith('ewog')).toBe(true);
  });
});

describe('structure and placeholders', () => {
  it('checks the CRC32 of GitHub and npm tokens', () => {
    expect(base62Crc32Valid(checksummed('ghp_'))).toBe(true);
    expect(base62Crc32Valid(checksummed('npm_'))).toBe(true);
    expect(base62Crc32Valid(checksummed('ghp_', false))).toBe(false);
  });

  it('calls repeated, sequential, templated and low-entropy values placeholders, and random ones not', () => {
    for (const value of [
      'sk_live_aaaaaabbbbbbccccccdddddd',
      'ghp_0123456789abcdefghijklmnopqrstuvwxyz',
      'xoxb-${SLACK_TOKEN}',
      'sk_live_<your key>',
      'sk_live_abababababababababababab',
    ])
      expect(isPlaceholder(value, undefined, undefined), value).toBe(true);
    expect(isPlaceholder('sk_live_51Hq8rT2eXmP0vLk9ZsWc4Yb', undefined, undefined)).toBe(false);
  });

  it('calls a database URL a leak only with a reachable host and a password that is not documentation', () => {
    expect(isRemoteDatabaseUrl('postgres://app:Gk29sLq0@db.acme.nl:5432/app')).toBe(true);
    expect(isRemoteDatabaseUrl('mongodb://svc:Gk29sLq0@h1.acme.nl:27017,h2.acme.nl:27017/shop')).toBe(true);
    for (const url of [
      'postgres://app:Gk29sLq0@localhost/app',
      'postgres://app:Gk29sLq0@db:5432/app',
      'postgres://app:password@db.acme.nl/app',
      'mysql://root:${DB_PASS}@db.acme.nl/x',
      'postgres://a:Gk29sLq0@db.example.com/x',
    ]) {
      expect(isRemoteDatabaseUrl(url), url).toBe(false);
    }
  });

  it('trims a database URL to the URL, not the code after it, and previews its password', async () => {
    // The password is the credential: the preview ends in its own last characters and gives its length.
    const url = 'postgres://app:Gk29sLq0Xv@db.acme.nl/app';
    const [found] = await findSecrets(`const d="${url}",port=5432,pool={max:10};`);
    expect(found).toEqual({ kind: 'database_url', preview: 'Gk…q0Xv', length: 10 });
    // A base64 password ending in == and an @ in the query: the whole URL is the match, the password the preview.
    const password = 'Zq8vR2mK9xT4wL7nB3cY==';
    const tricky = `mongodb+srv://app:${password}@cluster0.ab1cd.mongodb.net/shop?retryWrites=true&appName=shop@acme`;
    const [mongo] = await findSecrets(`const d="${tricky}";`);
    expect(mongo).toEqual({ kind: 'database_url', preview: 'Zq8vR…cY==', length: password.length });
    const [bare] = await findSecrets(inBundle(url));
    expect(bare!.preview).toBe('Gk…q0Xv');
  });
});
