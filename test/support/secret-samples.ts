import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { SecretKind } from '../../scanner/secrets/secret-rules.ts';

/**
 * Credentials generated from each kind's documented format, new for every run (no test knows them in
 * advance), each in the kind of code a bundler emits, with negatives of the same shape and a
 * placeholder. Nothing here is copied from another project's test data.
 */
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
export const B64URL = `${ALNUM}-_`;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random characters of an alphabet, without six-character runs (which the placeholder filter refuses, as it should). */
export function random(length: number, alphabet = ALNUM): string {
  for (;;) {
    const value = Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
    if (!/(.)\1{4}/.test(value)) return value;
  }
}

/** 30 random base62 characters and their CRC32 in 6 base62 digits, as GitHub and npm tokens end. */
export function checksummed(prefix: string, valid = true): string {
  const body = random(30);
  let sum = crc32(body) + (valid ? 0 : 1);
  let digits = '';
  for (let i = 0; i < 6; i += 1) {
    digits = BASE62[sum % 62] + digits;
    sum = Math.floor(sum / 62);
  }
  return `${prefix}${body}${digits}`;
}

const b64url = (value: string | object) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A Supabase legacy key; `indent` writes its JSON with whitespace, as some signers do. */
export function supabaseJwt(role: 'anon' | 'service_role', ref = 'qwertyuiopasdfghjklz', indent?: number): string {
  const iat = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value, null, indent)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ iss: 'supabase', ref, role, iat, exp: iat + 10 * 365 * 86_400 })}.${randomBytes(32).toString('base64url')}`;
}

function pgpBlock(): string {
  const lines = randomBytes(900)
    .toString('base64')
    .match(/.{1,64}/g)!;
  return `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${lines.join('\n')}\n=${random(4)}\n-----END PGP PRIVATE KEY BLOCK-----`;
}

function opensshBlock(): string {
  const key = Buffer.concat([
    Buffer.from('openssh-key-v1\0'),
    Buffer.from([0, 0, 0, 4]),
    Buffer.from('none'),
    Buffer.alloc(12),
    randomBytes(300),
  ]);
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${key
    .toString('base64')
    .match(/.{1,70}/g)!
    .join('\n')}\n-----END OPENSSH PRIVATE KEY-----`;
}

const pem = (type: 'rsa' | 'ec', format: 'pkcs8' | 'pkcs1' | 'sec1') =>
  (type === 'rsa'
    ? generateKeyPairSync('rsa', { modulusLength: 1024 })
    : generateKeyPairSync('ec', { namedCurve: 'P-256' })
  ).privateKey
    .export({ type: format, format: 'pem' })
    .toString()
    .trim();

/** How bundlers embed a value: an object literal passed to a minified constructor. */
export const inBundle = (secret: string, before = '', after = '') =>
  `${before}const Xr=class{constructor(t){this.o=t}};export const client=new Xr({apiKey:${JSON.stringify(secret)}});${after}`;

export interface Positive {
  /** The credential as a program uses it; its last 4 characters end the preview. */
  secret: string;
  code: string;
}

export interface KindSamples {
  kind: SecretKind;
  positives: Positive[];
  /** Code with values of the same shape that are not this kind's credential. */
  negatives: string[];
  placeholder: string;
}

const plain = (...secrets: string[]): Positive[] => secrets.map((secret) => ({ secret, code: inBundle(secret) }));

export function secretSamples(): KindSamples[] {
  const serviceRoleSpaced = supabaseJwt('service_role', undefined, 2);
  const awsId = `AKIA${random(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`;
  const awsSecret = random(40, `${ALNUM}/+`);
  const accountSid = `AC${random(32, HEX)}`;
  const twilioToken = random(32, HEX);
  const cohereKey = random(40);
  const serviceAccountKey = pem('rsa', 'pkcs8');
  const snowflake = `1${random(18, '0123456789')}`;
  const algoliaAdmin = random(32, HEX);
  const mongo = `mongodb+srv://shop-api:${random(20)}@cluster0.k2x9q.mongodb.net/shop?retryWrites=true&w=majority`;
  return [
    {
      kind: 'stripe',
      positives: plain(`sk_live_51${random(97)}`, `rk_live_51${random(97)}`),
      negatives: [inBundle(`pk_live_51${random(97)}`), inBundle(`sk_live_${'0123456789'.repeat(3)}`)],
      placeholder: inBundle('sk_live_xxxxxxxxxxxxxxxxxxxxxxxxxxxx'),
    },
    {
      kind: 'stripe_test',
      positives: plain(`sk_test_51${random(97)}`),
      negatives: [inBundle(`pk_test_51${random(97)}`)],
      placeholder: inBundle('sk_test_your_stripe_secret_key_here_0000'),
    },
    {
      kind: 'openai',
      positives: plain(
        `sk-proj-${random(74, B64URL)}T3BlbkFJ${random(74, B64URL)}`,
        `sk-svcacct-${random(74, B64URL)}T3BlbkFJ${random(74, B64URL)}`,
        `sk-${random(20)}T3BlbkFJ${random(20)}`,
        `sk-admin-${random(58, B64URL)}T3BlbkFJ${random(58, B64URL)}`,
      ),
      negatives: [inBundle(`sk-proj-${random(40)}`)],
      placeholder: inBundle('sk-proj-your-api-key-here'),
    },
    {
      kind: 'anthropic',
      positives: plain(`sk-ant-api03-${random(93, B64URL)}AA`, `sk-ant-admin01-${random(93, B64URL)}AA`),
      negatives: [inBundle(`sk-ant-api03-${random(20)}`)],
      placeholder: inBundle(`sk-ant-api03-${'x'.repeat(93)}AA`),
    },
    {
      kind: 'xai',
      positives: plain(`xai-${random(80)}`),
      negatives: [inBundle(`xai-${random(30)}`)],
      placeholder: inBundle(`xai-${'0123456789'.repeat(8)}`),
    },
    {
      kind: 'replicate',
      positives: plain(`r8_${random(37)}`),
      negatives: [inBundle(`r8_${random(12)}`)],
      placeholder: inBundle(`r8_${'a'.repeat(37)}`),
    },
    {
      kind: 'deepseek',
      // The format is shared with Alibaba's Model Studio: DeepSeek's name or host beside it decides.
      positives: [`sk-${random(32, HEX)}`].map((secret) => ({
        secret,
        code: `const Ds=new Xr({baseURL:"https://api.deepseek.com",apiKey:${JSON.stringify(secret)}});`,
      })),
      negatives: [inBundle(`sk-${random(32, HEX)}-x`), inBundle(`task-${random(32, HEX)}`)],
      placeholder: inBundle(`sk-${'abcdef0123456789'.repeat(2)}`),
    },
    {
      kind: 'cohere',
      positives: [cohereKey].map((secret) => ({
        secret,
        code: `import{CohereClient as Co}from"./vendor.js";const co=new Co({token:${JSON.stringify(secret)}});`,
      })),
      negatives: [inBundle(random(40)), `const Co="cohere",commit="${random(40, HEX)}";`],
      placeholder: 'const co=new CohereClient({token:"your-cohere-api-key-here-0000000000000000"});',
    },
    {
      kind: 'google_ai',
      positives: [`AIza${random(35, B64URL)}`].map((secret) => ({
        secret,
        code: `const Ge=${JSON.stringify(secret)};async function Gm(p){return fetch("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent?key="+Ge,{method:"POST",body:JSON.stringify({contents:[{parts:[{text:p}]}]})})}`,
      })),
      // The same format is public for Firebase and Maps.
      negatives: [
        `const fb={apiKey:"AIza${random(35, B64URL)}",authDomain:"acme-app.firebaseapp.com",projectId:"acme-app"};`,
        `loader.load({key:"AIza${random(35, B64URL)}",libraries:["places"]});`,
      ],
      placeholder:
        'new GoogleGenAI({apiKey:"AIzaSyYOUR_API_KEY_HERE_xxxxxxxxxxxxxx"});fetch("https://generativelanguage.googleapis.com/")',
    },
    {
      kind: 'aws',
      positives: [
        { secret: awsId, code: inBundle(awsId) },
        {
          secret: awsSecret,
          code: `const aw={region:"eu-west-1",credentials:{accessKeyId:"${awsId}",secretAccessKey:"${awsSecret}"}};`,
        },
      ],
      negatives: [inBundle(`AKIA${random(16, 'abcdefghijklmnop')}`)],
      placeholder:
        'const ex={accessKeyId:"AKIAIOSFODNN7EXAMPLE",secretAccessKey:"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"};',
    },
    {
      kind: 'supabase_secret',
      positives: [
        ...plain(`sb_secret_${random(31, B64URL)}`, supabaseJwt('service_role')),
        { secret: serviceRoleSpaced, code: inBundle(serviceRoleSpaced) },
      ],
      negatives: [
        inBundle(supabaseJwt('anon')),
        inBundle(supabaseJwt('anon', undefined, 2)),
        inBundle(`sb_publishable_${random(31)}`),
      ],
      placeholder: inBundle('sb_secret_your-supabase-secret-key'),
    },
    {
      kind: 'supabase_management',
      positives: plain(`sbp_${random(40, HEX)}`),
      negatives: [inBundle(`sbp_${random(20, HEX)}`)],
      placeholder: inBundle(`sbp_${'0'.repeat(40)}`),
    },
    {
      kind: 'gcp',
      positives: [
        {
          secret: serviceAccountKey,
          code: `const sa=${JSON.stringify({ type: 'service_account', project_id: 'acme-prod', private_key_id: random(40, HEX), private_key: `${serviceAccountKey}\n`, client_email: 'web@acme-prod.iam.gserviceaccount.com' })};`,
        },
      ],
      negatives: [
        `const sa={type:"service_account",project_id:"acme-prod",client_email:"web@acme-prod.iam.gserviceaccount.com"};`,
      ],
      placeholder: `const sa={type:"service_account",private_key:"-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----\\n"};`,
    },
    {
      kind: 'private_key',
      positives: [pem('ec', 'pkcs8'), pem('rsa', 'pkcs1'), pem('ec', 'sec1'), opensshBlock(), pgpBlock()].map(
        (secret) => ({ secret, code: `const k=${JSON.stringify(secret)};` }),
      ),
      negatives: [
        'const a="-----BEGIN PRIVATE KEY-----",b="-----END PRIVATE KEY-----";',
        `const pub=${JSON.stringify(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString())};`,
      ],
      placeholder:
        'const k="-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC...\\n-----END PRIVATE KEY-----";',
    },
    {
      kind: 'database_url',
      positives: [
        `postgres://app_owner:${random(24)}@db.internal.acme.nl:5432/prod`,
        mongo,
        `mysql://shop:${random(16)}@10.0.4.12:3306/shop`,
      ].map((secret) => ({
        secret,
        code: `const Db=${JSON.stringify(secret)},Dp={pool:{max:5},port:5432};`,
      })),
      negatives: [
        'const d="postgres://user:password@localhost:5432/app";',
        `const d="postgres://app:${random(12)}@localhost/app";`,
        'const d="mongodb://db.acme.nl:27017/shop";',
      ],
      placeholder: 'const d="postgres://postgres:${POSTGRES_PASSWORD}@db.acme.nl:5432/app";',
    },
    {
      kind: 'azure_sas',
      positives: ['racwd', 'w', 'rwdlacup'].map((sp) => {
        const secret = `https://acmefiles.blob.core.windows.net/uploads/a.png?sv=2022-11-02&sp=${sp}&se=2027-01-01T00:00:00Z&sig=${encodeURIComponent(`${random(43, `${B64URL.slice(0, 62)}+/`)}=`)}`;
        return { secret, code: `const Up=${JSON.stringify(secret)};` };
      }),
      // A read-only signed URL shares a file, as a public link does.
      negatives: [
        `const img="https://acmefiles.blob.core.windows.net/pub/a.png?sv=2022-11-02&sp=r&se=2027-01-01&sig=${random(43, B64URL)}%3D";`,
      ],
      placeholder: 'const up="https://acmefiles.blob.core.windows.net/uploads?sv=2022-11-02&sp=rw&sig=<signature>";',
    },
    {
      kind: 'twilio',
      positives: [
        ...plain(`SK${random(32, HEX)}`),
        { secret: twilioToken, code: `const Tw=twilio(${JSON.stringify(accountSid)},${JSON.stringify(twilioToken)});` },
      ],
      negatives: [
        `const Tw={accountSid:${JSON.stringify(accountSid)}},build="${random(32, HEX)}";`.replace(
          /build="/,
          `${' '.repeat(400)}build="`,
        ),
        inBundle(`SK${random(30, HEX)}`),
      ],
      placeholder: inBundle(`SK${'0123456789abcdef'.repeat(2)}`),
    },
    {
      kind: 'mailgun',
      positives: [
        ...plain(`key-${random(32, HEX)}`),
        ...[`${random(32, HEX)}-${random(8, HEX)}-${random(8, HEX)}`].map((secret) => ({
          secret,
          code: `import Mg from"./mailgun.js";const mg=new Mg(FormData).client({username:"api",key:${JSON.stringify(secret)},url:"https://api.eu.mailgun.net"});`,
        })),
      ],
      negatives: [
        inBundle(`pubkey-${random(32, HEX)}`),
        inBundle(randomUUID()),
        inBundle(`${random(32, HEX)}-${random(8, HEX)}-${random(4, HEX)}`),
      ],
      placeholder: inBundle(`key-${'0'.repeat(32)}`),
    },
    {
      kind: 'mailchimp',
      positives: plain(`${random(32, HEX)}-us21`),
      negatives: [inBundle(`${random(32, HEX)}-eu21`)],
      placeholder: inBundle(`${'abcdef'.repeat(5)}ab-us1`),
    },
    {
      kind: 'postmark',
      positives: [randomUUID()].map((secret) => ({
        secret,
        code: `fetch("https://api.postmarkapp.com/email",{method:"POST",headers:{"X-Postmark-Server-Token":${JSON.stringify(secret)}}});`,
      })),
      negatives: [inBundle(randomUUID())],
      placeholder:
        'fetch("https://api.postmarkapp.com/email",{headers:{"X-Postmark-Server-Token":"00000000-0000-0000-0000-000000000000"}});',
    },
    {
      kind: 'sendgrid',
      positives: plain(
        `SG.${random(10, B64URL)}-${random(11, B64URL)}.${random(43, B64URL)}`,
        `SG.${random(22)}.${random(43)}`,
      ),
      negatives: [inBundle(`SG.${random(10)}.${random(20)}`)],
      placeholder: inBundle(`SG.${'x'.repeat(22)}.${'x'.repeat(43)}`),
    },
    {
      kind: 'discord',
      positives: plain(
        `${b64url(snowflake)}.${random(6, B64URL)}.${random(38, B64URL)}`,
        `https://discord.com/api/webhooks/${snowflake}/${random(68, B64URL)}`,
      ),
      // A dotted triple whose first part is no user id.
      negatives: [inBundle(`${b64url('not-a-snowflake!!')}.${random(6, B64URL)}.${random(38, B64URL)}`)],
      placeholder: inBundle(`https://discord.com/api/webhooks/${snowflake}/${'x'.repeat(68)}`),
    },
    {
      kind: 'telegram',
      positives: plain(`${random(10, '0123456789')}:AA${random(33, B64URL)}`),
      negatives: [inBundle(`12:AA${random(33, B64URL)}`)],
      placeholder: inBundle('123456789:AAyour-telegram-bot-token-here-0000000'),
    },
    {
      kind: 'slack',
      positives: plain(
        `xoxb-${random(12, '0123456789')}-${random(13, '0123456789')}-${random(24)}`,
        `xoxp-${random(12, '0123456789')}-${random(12, '0123456789')}-${random(13, '0123456789')}-${random(32, HEX)}`,
        `xapp-1-A0${random(9, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}-${random(13, '0123456789')}-${random(64, HEX)}`,
        `https://hooks.slack.com/services/T0${random(8, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}/B0${random(8, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}/${random(24)}`,
      ),
      negatives: [
        inBundle('xoxb-12345-abcd234'),
        inBundle('xoxb-xoxb-my-bot-token'),
        inBundle('xoxp-1234-5678-abcd'),
        inBundle('xoxb-0000000000-0000000000000-xxxxxxxxxxxxxxxxxxxxxxxx'),
      ],
      placeholder: inBundle('https://hooks.slack.com/services/TXXXXXXXX/BXXXXXXXX/XXXXXXXXXXXXXXXXXXXXXXXX'),
    },
    {
      kind: 'algolia',
      positives: [
        {
          secret: algoliaAdmin,
          code: `import Al from"./algoliasearch.js";const adminApiKey=${JSON.stringify(algoliaAdmin)},client=Al("LKJH23GF45",adminApiKey);`,
        },
      ],
      // Search-only keys are public by design.
      negatives: [
        `import Al from"./algoliasearch.js";const searchClient=Al("LKJH23GF45",${JSON.stringify(random(32, HEX))});`,
      ],
      placeholder: 'import Al from"./algoliasearch.js";const adminApiKey="00000000000000000000000000000000";',
    },
    {
      kind: 'mapbox',
      positives: plain(
        `sk.${b64url({ u: 'acme', a: random(25, 'abcdefghijklmnopqrstuvwxyz0123456789') })}.${random(22, B64URL)}`,
      ),
      negatives: [
        inBundle(
          `pk.${b64url({ u: 'acme', a: random(25, 'abcdefghijklmnopqrstuvwxyz0123456789') })}.${random(22, B64URL)}`,
        ),
        inBundle(`sk.${b64url({ x: 1, yy: 'abcdefgh' })}.${random(22, B64URL)}`),
      ],
      placeholder: inBundle(`sk.${b64url({ u: 'your-username' })}.${'x'.repeat(22)}`),
    },
    {
      kind: 'google_oauth',
      positives: plain(`GOCSPX-${random(28, B64URL)}`),
      negatives: [inBundle(`GOCSPX-${random(10)}`)],
      placeholder: inBundle(`GOCSPX-${'x'.repeat(28)}`),
    },
    {
      kind: 'google_access_token',
      positives: plain(`ya29.a0${random(150, B64URL)}`),
      negatives: [inBundle('ya29.short')],
      placeholder: inBundle(`ya29.${'x'.repeat(60)}`),
    },
    {
      kind: 'github',
      positives: [
        ...plain(...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'].map((prefix) => checksummed(prefix))),
        ...plain(`github_pat_11${random(20)}_${random(59)}`),
      ],
      // The format without its checksum is no GitHub token.
      negatives: [inBundle(checksummed('ghp_', false)), inBundle(checksummed('ghs_', false))],
      placeholder: inBundle(`ghp_${'x'.repeat(36)}`),
    },
    {
      kind: 'gitlab',
      positives: plain(
        `glpat-${random(20, B64URL)}`,
        `glrt-${random(20, B64URL)}`,
        `glptt-${random(40, HEX)}`,
        `GR1348941${random(20, B64URL)}`,
        `gldt-${random(20, B64URL)}`,
      ),
      negatives: [inBundle(`glpat-${random(8)}`)],
      placeholder: inBundle(`glpat-${'x'.repeat(20)}`),
    },
    {
      kind: 'npm',
      positives: plain(checksummed('npm_')),
      negatives: [inBundle(checksummed('npm_', false))],
      placeholder: inBundle(`npm_${'x'.repeat(36)}`),
    },
    {
      kind: 'posthog',
      positives: plain(`phx_${random(43)}`),
      negatives: [inBundle(`phc_${random(43)}`)],
      placeholder: inBundle(`phx_${'x'.repeat(43)}`),
    },
    {
      kind: 'sentry',
      positives: plain(
        `sntryu_${random(64, HEX)}`,
        `sntrys_${Buffer.from(JSON.stringify({ iat: 1735689600, url: 'https://sentry.io', region_url: 'https://de.sentry.io', org: 'acme' })).toString('base64')}_${random(43, `${ALNUM}+/`)}`,
      ),
      // A DSN is public by design.
      negatives: [
        `Sentry.init({dsn:"https://${random(32, HEX)}@o${random(6, '0123456789')}.ingest.de.sentry.io/${random(7, '0123456789')}"});`,
      ],
      placeholder: inBundle(`sntryu_${'0'.repeat(64)}`),
    },
    {
      kind: 'basic_auth',
      positives: [`https://deploy:${random(18)}@api.acme-shop.nl`].map((secret) => ({
        secret,
        code: `fetch(${JSON.stringify(`${secret}/v1/orders`)});`,
      })),
      negatives: ['fetch("https://api.acme-shop.nl/v1/orders");'],
      placeholder: 'fetch("https://user:password@api.acme-shop.nl/v1/orders");',
    },
  ];
}

/** Values public by design, each in the code that uses it: never a finding. */
export function publicValues(): string[] {
  return [
    `Stripe("pk_live_51${random(97)}");`,
    `createClient("https://qwertyuiopasdfghjklz.supabase.co","sb_publishable_${random(31)}");`,
    `createClient("https://qwertyuiopasdfghjklz.supabase.co",${JSON.stringify(supabaseJwt('anon'))});`,
    `initializeApp({apiKey:"AIza${random(35, B64URL)}",authDomain:"acme-app.firebaseapp.com",projectId:"acme-app",storageBucket:"acme-app.appspot.com",messagingSenderId:"${random(12, '0123456789')}",appId:"1:${random(12, '0123456789')}:web:${random(22, HEX)}"});`,
    `new google.maps.Map(el,{center:{lat:52.37,lng:4.89}});const Mk="AIza${random(35, B64URL)}";`,
    `mapboxgl.accessToken="pk.${b64url({ u: 'acme', a: random(25, 'abcdefghijklmnopqrstuvwxyz0123456789') })}.${random(22, B64URL)}";`,
    `const search=algoliasearch("LKJH23GF45","${random(32, HEX)}");const searchOnlyApiKey="${random(32, HEX)}";`,
    `Sentry.init({dsn:"https://${random(32, HEX)}@o${random(6, '0123456789')}.ingest.sentry.io/${random(7, '0123456789')}",tracesSampleRate:.1});`,
    `posthog.init("phc_${random(43)}",{api_host:"https://eu.i.posthog.com"});`,
    `grecaptcha.render("captcha",{sitekey:"6L${random(38, B64URL)}"});`,
    `const Clerk=new ClerkJS("pk_live_${b64url('clerk.acme.nl$')}");const Ct="pk_test_${b64url('settled-ox-12.clerk.accounts.dev$')}";`,
  ];
}
