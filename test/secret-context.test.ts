import { describe, expect, it } from 'vitest';
import { findSecrets } from '../scanner/secrets/secret-scan.ts';
import { SECRET_RULES } from '../scanner/secrets/secret-rules.ts';
import { B64URL, checksummed, random, supabaseJwt } from './support/secret-samples.ts';

const HEX = '0123456789abcdef';
const kinds = async (code: string) => (await findSecrets(code)).map((f) => f.kind);

describe('credentials found by the API host beside them', () => {
  it('names a key of no known vendor after its host, at HIGH, in every credential position', async () => {
    const key = `k${random(39)}`;
    for (const code of [
      `fetch("https://api.quotely.dev/v1/quotes",{headers:{Authorization:"Bearer ${key}"}});`,
      `const q=new Qt({apiKey:"${key}",baseURL:"https://api.quotely.dev"});`,
      `xhr.open("GET","https://api.quotely.dev/v1");xhr.setRequestHeader("X-Api-Key","${key}");`,
      `const cfg={endpoint:"https://api.quotely.dev/graphql",token:'${key}'};`,
      `const q=new Qt({host:"api.quotely.dev",apiKey:"${key}"});`,
    ]) {
      const found = await findSecrets(code);
      expect(found, code).toEqual([
        { kind: 'api_credential', preview: `${key.slice(0, 8)}…${key.slice(-4)}`, length: 40, host: 'api.quotely.dev' },
      ]);
    }
    expect(SECRET_RULES.api_credential.severity).toBe('HIGH');
  });

  it('reports no public value, no relative URL and no word beside a host', async () => {
    const hex = random(32, HEX);
    for (const code of [
      // Public by design: maps, Firebase, search-only, publishable and site keys, anon JWTs on a custom domain.
      `new google.maps.Map(el,{});const loader={apiKey:"AIza${random(35, B64URL)}",url:"https://maps.googleapis.com/maps/api/js"};`,
      `initializeApp({apiKey:"AIza${random(35, B64URL)}",authDomain:"acme-app.firebaseapp.com"});`,
      `const s=algoliasearch("LKJH23GF45","${hex}");const c={apiKey:"${hex}",host:"https://LKJH23GF45-dsn.algolia.net"};`,
      `const st=Stripe("pk_live_51${random(97)}");fetch("https://api.stripe.com/v1/tokens",{headers:{Authorization:"Bearer pk_live_51${random(97)}"}});`,
      `createClient("https://db.acme.nl",${JSON.stringify(supabaseJwt('anon'))});const h={apikey:${JSON.stringify(supabaseJwt('anon'))},url:"https://db.acme.nl/rest/v1"};`,
      `const adyen={clientKey:"test_${random(32, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}",environment:"https://checkoutshopper-test.adyen.com"};`,
      `tinymce.init({apiKey:"${random(40, 'abcdefghijklmnopqrstuvwxyz0123456789')}",src:"https://cdn.tiny.cloud/1/x/tinymce/6/tinymce.min.js"});`,
      `grecaptcha.render("c",{sitekey:"6L${random(38, B64URL)}",url:"https://www.google.com/recaptcha/api.js"});`,
      `const pusher=new Pusher("${random(20, HEX)}",{key:"${random(20, HEX)}",wsHost:"https://ws-eu.pusher.com"});`,
      // A key-like value with only a relative URL, and words.
      `fetch("/api/orders",{headers:{Authorization:"Bearer ${random(40)}"}});`,
      `fetch("https://api.quotely.dev/v1",{headers:{Authorization:"Bearer your-api-key-goes-here-please"}});`,
      `const t={token:"refresh_access_token_on_expiry",url:"https://api.quotely.dev"};`,
    ])
      expect(await findSecrets(code), code).toEqual([]);
  });
});

describe('attribution of shared formats', () => {
  it('names a sk_live_ key after the vendor whose SDK or host stands beside it, and a lower-case one without context after no vendor', async () => {
    const stripe = `sk_live_51${random(97)}`;
    const paystack = `sk_live_${random(40, HEX)}`;
    const clerk = `sk_live_${random(40)}`;
    expect(await kinds(`const s=new Stripe(${JSON.stringify(stripe)});`)).toEqual(['stripe']);
    expect(
      await kinds(`fetch("https://api.paystack.co/transaction",{headers:{Authorization:"Bearer ${paystack}"}});`),
    ).toEqual(['paystack']);
    expect(
      await kinds(`import{createClerkClient as Ck}from"@clerk/backend";const ck=Ck({secretKey:"${clerk}"});`),
    ).toEqual(['clerk']);
    expect(await kinds(`const k={secretKey:"${paystack}"};`)).toEqual(['live_secret_key']);
    expect(SECRET_RULES.live_secret_key.label).not.toMatch(/^Stripe/);
    expect(SECRET_RULES.paystack.revoke).toContain('Paystack');
  });

  it('names a sk- hex key DeepSeek or Alibaba only by its context, and neutrally without', async () => {
    const key = `sk-${random(32, HEX)}`;
    expect(await kinds(`new OpenAI({baseURL:"https://api.deepseek.com",apiKey:"${key}"});`)).toEqual(['deepseek']);
    expect(
      await kinds(`new OpenAI({baseURL:"https://dashscope-intl.aliyuncs.com/compatible-mode/v1",apiKey:"${key}"});`),
    ).toEqual(['dashscope']);
    expect(await kinds(`const k="${key}";`)).toEqual(['ai_sk_key']);
  });
});

describe("the miss classes of the peers' samples", () => {
  it('finds a Telegram token inside the API URL path', async () => {
    const token = `${random(10, '0123456789')}:AA${random(33, B64URL)}`;
    expect(await findSecrets(`fetch("https://api.telegram.org/bot${token}/sendMessage?chat_id=1");`)).toEqual([
      { kind: 'telegram', preview: `${token.slice(0, 8)}…${token.slice(-4)}`, length: token.length },
    ]);
  });

  it('finds GitHub refresh tokens and the longer token forms, and still refuses a 36-character token with a bad checksum', async () => {
    expect(await kinds(`const r="ghr_${random(76)}";`)).toEqual(['github']);
    expect(await kinds(`const s="ghs_${random(90)}";`)).toEqual(['github']);
    expect(await kinds(`const p="${checksummed('ghp_', false)}";`)).toEqual([]);
  });

  it('finds a service-account key in a JSON string inside a JS string, with its quotes and line breaks escaped twice', async () => {
    const body = Array.from({ length: 12 }, () => random(64, `${B64URL.slice(0, 62)}+/`)).join('\\\\n');
    const json = `{\\"type\\":\\"service_account\\",\\"project_id\\":\\"acme\\",\\"private_key\\":\\"-----BEGIN PRIVATE KEY-----\\\\n${body}\\\\n-----END PRIVATE KEY-----\\\\n\\",\\"client_email\\":\\"web@acme.iam.gserviceaccount.com\\"}`;
    expect(await kinds(`const sa=JSON.parse("${json}");`)).toEqual(['gcp']);
  });

  it('finds credentials that are secrets by their context: an npm UUID token, a Google client secret beside its client id, a Postmark token', async () => {
    const uuid = crypto.randomUUID();
    expect(await kinds(`const npmrc="//registry.npmjs.org/:_authToken=${uuid}";`)).toEqual(['npm']);
    const secret = random(24, B64URL).replace(/^./, 'Q').replace(/.$/, '7');
    expect(
      await kinds(
        `const g={client_id:"${random(12, '0123456789')}-${random(32, 'abcdefghijklmnopqrstuvwxyz0123456789')}.apps.googleusercontent.com",client_secret:"${secret}"};`,
      ),
    ).toEqual(['google_oauth']);
    expect(await kinds(`const pm={POSTMARK_SERVER_TOKEN:"${uuid}"};`)).toEqual(['postmark']);
  });

  it('finds a value a row matched but could not attribute beside an API host, and never a placeholder or a token whose checksum fails', async () => {
    const jwt = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: random(12), scope: 'write' })).toString('base64url')}.${random(43, B64URL)}`;
    const long = `${random(600, B64URL)}x9`;
    for (const value of [jwt, `live_${random(35, HEX)}`, long]) {
      const found = await findSecrets(`fetch("https://api.lob.dev/v1",{headers:{Authorization:"Bearer ${value}"}});`);
      expect(found, value.slice(0, 12)).toEqual([
        {
          kind: 'api_credential',
          preview: `${value.slice(0, 8)}…${value.slice(-4)}`,
          length: value.length,
          host: 'api.lob.dev',
        },
      ]);
    }
    const unchecked = checksummed('ghp_', false);
    const placeholder = `live_${'0123456789abcdef'.repeat(2)}abc`;
    for (const value of [unchecked, placeholder])
      expect(
        await findSecrets(`fetch("https://api.github.com/user",{headers:{Authorization:"Bearer ${value}"}});`),
        value,
      ).toEqual([]);
  });

  it('finds credentials named only by their variable or a vendor beside them: Facebook app secrets, New Relic license keys, SonarQube and Azure DevOps tokens of the old formats, Okta tokens', async () => {
    const lower = 'abcdefghijklmnopqrstuvwxyz0123456789';
    expect(await kinds(`const cfg={fbAppSecret:"${random(32, HEX)}"};`)).toEqual(['facebook']);
    expect(await kinds(`// New Relic agent\nconst nr={license_key:"${random(40, HEX)}"};`)).toEqual(['newrelic']);
    expect(await kinds(`run("-Dsonar.login=${random(40, HEX)}");`)).toEqual(['sonar']);
    expect(await kinds(`const ado={personalAccessToken:"${random(52, lower)}"};`)).toEqual(['azure_devops']);
    expect(
      await kinds(`const okta=new OktaClient({orgUrl:"https://acme.okta.com",x:"00${random(40, B64URL)}"});`),
    ).toEqual(['okta']);
    // Without the name or the vendor, the same shapes are digests and ids.
    for (const code of [
      `const integrity="sonarqube-scanner-2.5.0.tgz#${random(40, HEX)}";`,
      `const nr={license_key:"${random(40, HEX)}"};`,
      `const build={commit:"${random(40, HEX)}",app:"${random(32, HEX)}"};`,
      `const o={id:"00${random(40, B64URL)}"};`,
    ])
      expect(await findSecrets(code), code).toEqual([]);
  });

  it('finds an Azure Storage SAS URL that may write, and not one that only reads', async () => {
    const sig = encodeURIComponent(`${random(42, `${B64URL.slice(0, 62)}+/`)}=`);
    const sas = (sp: string) =>
      `const upload="https://acmefiles.blob.core.windows.net/uploads?sv=2022-11-02&ss=b&srt=co&sp=${sp}&se=2027-01-01T00:00:00Z&spr=https&sig=${sig}";`;
    const found = await findSecrets(sas('rwdlac'));
    expect(found).toEqual([{ kind: 'azure_sas', preview: `${sig.slice(0, 8)}…${sig.slice(-4)}`, length: sig.length }]);
    expect(await findSecrets(sas('rl'))).toEqual([]);
  });

  it('finds a connection-string key right after a letter, and a key in an Authorization header line', async () => {
    const key = `${random(43, `${B64URL.slice(0, 62)}+/`)}=`;
    expect(
      await kinds(`const iot="HostName=acme.azure-devices.net;SharedAccessKeyName=device;SharedAccessKey=${key}";`),
    ).toEqual(['azure_connection']);
    expect(
      await kinds(`const ac="Endpoint=https://acme.azconfig.io;Id=ab1-l0-s0:${random(20)};Secret=${key}";`),
    ).toEqual(['azure_connection']);
    const token = `k${random(39)}`;
    const found = await findSecrets(
      `const curl='curl https://api.quotely.dev/v1 -H "Authorization: Bearer ${token}"';`,
    );
    expect(found).toEqual([
      {
        kind: 'api_credential',
        preview: `${token.slice(0, 8)}…${token.slice(-4)}`,
        length: 40,
        host: 'api.quotely.dev',
      },
    ]);
  });

  it('finds a mongodb+srv URL with a password, and names every one of many keys in a script', async () => {
    expect(
      await kinds(`const m="mongodb+srv://app:${random(16)}@cluster0.x1y2z.mongodb.net/?retryWrites=true";`),
    ).toEqual(['database_url']);
    const keys = Array.from({ length: 12 }, () => `sk-or-v1-${random(64, HEX)}`);
    const found = await findSecrets(`const ks=${JSON.stringify(keys)};`);
    expect(found.map((f) => f.preview.slice(-4)).sort()).toEqual(keys.map((k) => k.slice(-4)).sort());
  });
});
