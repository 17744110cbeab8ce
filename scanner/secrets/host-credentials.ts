import { decodeJwtPayload } from './jwt.ts';
import { isPlaceholder } from './secret-placeholders.ts';

/**
 * Credentials found by their position: a key-like value in a credential position of a call or object
 * (an `Authorization` Bearer/Basic value, also written as a header line `Authorization: Bearer …`, an `x-api-key`-style header, an `apiKey`, `token` or
 * `secret` property), with the API host within WINDOW characters or a vendor named in the position's
 * own name (`SPARKPOST_API_KEY`). Browser code calls the vendor right next to its key, which no
 * prefix-based rule uses.
 */
const WINDOW = 400;

// Anchored on the name's last word, so the regex engine skips to those literals; the rest of the name is read backwards.
const POSITION =
  /(?<word>key|token|secret|authorization|password|auth)["'`]?\s{0,4}(?:[:=,]|=>)\s{0,4}(?:(?<quote>["'`])(?:(?:bearer|basic|token|bot|ssws|key|apikey|api-key|deepl-auth-key)\s{1,4})?(?<value>[^"'`\s\\]{20,2048})\k<quote>|(?:bearer|basic|token|ssws)\s{1,4}(?<line>[^"'`\s\\]{20,2048})(?=["'`\s]|$)|(?<bare>[\w.~+/=:-]{20,2048})(?![\w.~+/=:-]))/gi;
const NAME_CHAR = /[\w$-]/;

/** Names that hold public or non-secret values: publishable and site keys, cache and storage keys, CSRF and paging tokens. */
const NOT_A_CREDENTIAL =
  /publish|public|pubkey|site[-_]?key|anon|query|cache|storage|primary|foreign|idempot|sort[-_]?key|partition|row[-_]?key|csrf|xsrf|captcha|search|client[-_]?key|session[-_]?key|item[-_]?key|map[-_]?key|dedupe|cursor|page[-_]?token|next[-_]?token|continuation|push[-_]?token|fcm[-_]?token|device[-_]?token|tokeni[sz]|i18n|translation|locale|hash|nonce|tracking|measurement|write[-_]?key|project[-_]?key|sdk[-_]?key|environment[-_]?key|ingest|sentry[-_]?key|storefront/i;

/**
 * Values public by design in any position: publishable keys, browser SDK keys, site keys, and the
 * client keys payment providers make for browsers (Midtrans `Mid-client-`, Xendit `xnd_public_`,
 * Checkout.com `pk_sbox_`, Adyen's `live_`/`test_` client keys).
 */
const PUBLIC_VALUE =
  /^(?:pk_(?:live|test|sbox)_|(?:SB-)?Mid-client-|xnd_public_|pk\.|sb_publishable_|phc_|AIza|NRJS-|FLWPUBK|rzp_(?:live|test)_|sq0idp-|pub[0-9a-f]{32}$|client-|6L[\w-]{38}$|0x4AAAA|(?:live|test)_[A-Z0-9]{32}$|G-|UA-|GTM-|pfl_|wg_|production_|sandbox_[a-z0-9]{8}_)/;

/** Hosts whose keys are public by design (maps, analytics, captcha, search, publishable SDKs), or that are documentation, not an API. */
const PUBLIC_HOSTS = [
  'maps.googleapis.com',
  'fonts.googleapis.com',
  'identitytoolkit.googleapis.com',
  'securetoken.googleapis.com',
  'firestore.googleapis.com',
  'firebasestorage.googleapis.com',
  'firebaseio.com',
  'firebaseapp.com',
  'gstatic.com',
  'google.com',
  'google-analytics.com',
  'googletagmanager.com',
  'supabase.co',
  'supabase.in',
  'algolia.net',
  'algolianet.com',
  'algolia.io',
  'posthog.com',
  'sentry.io',
  'segment.io',
  'segment.com',
  'mixpanel.com',
  'amplitude.com',
  'hcaptcha.com',
  'challenges.cloudflare.com',
  'api.mapbox.com',
  'js.stripe.com',
  'clerk.accounts.dev',
  'cdn.contentful.com',
  'preview.contentful.com',
  'api.storyblok.com',
  'apicdn.sanity.io',
  'cdn.sanity.io',
  'api.emailjs.com',
  'api.web3forms.com',
  'formspree.io',
  'cdn.tiny.cloud',
  'api.maptiler.com',
  'browser-intake-datadoghq.com',
  'browser-intake-datadoghq.eu',
  'bam.nr-data.net',
  'clientstream.launchdarkly.com',
  'clientsdk.launchdarkly.com',
  'cdn.growthbook.io',
  'api.statsig.com',
  'api.rollbar.com',
  'sessions.bugsnag.com',
  'notify.bugsnag.com',
  'js.intercomcdn.com',
  'widget.intercom.io',
  'static.zdassets.com',
  'pusher.com',
  'pusherapp.com',
  'weglot.com',
  'typesense.net',
  'stream-io-api.com',
  'getstream.io',
  'here.com',
  'hereapi.com',
  'tomtom.com',
  'arcgis.com',
  'virtualearth.net',
  'stadiamaps.com',
  'w3.org',
  'schema.org',
  'reactjs.org',
  'react.dev',
  'github.com',
  'developer.mozilla.org',
  'localhost',
];

/** `entry` names `host`: the host or a parent domain, or a prefix when the entry ends in a dot (`bedrock-runtime.`). */
export const hostMatches = (host: string, entry: string) =>
  entry.endsWith('.') ? host.startsWith(entry) : host === entry || host.endsWith(`.${entry}`);

const URL_HOST = /(?:https?|wss?|libsql):\/\/(?:[^\s"'`@/]{1,200}@)?([a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8})/gi;
const BARE_HOST = /["'`]([a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8})(?=["'`/:])/gi;

export interface PositionedCredential {
  start: number;
  end: number;
  value: string;
  /** The name of the position, as written: `apiKey`, `Authorization`, `SPARKPOST_API_KEY`. */
  name: string;
  /** The API host beside it; null when there is none (or only a public one). */
  host: string | null;
  /** An unquoted value (configuration text): only its name can vouch for it. */
  bare: boolean;
}

/** A value with the length, alphabet and entropy of a key, not a placeholder, not public by design. */
function looksLikeKey(value: string): boolean {
  // A whole value only: a literal with a character no token has (`?`, `#`, `<`, `>`) is text, not a key.
  if (value.includes('://') || /^[./]/.test(value) || /[?#<>]/.test(value) || PUBLIC_VALUE.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((re) => re.test(value)).length;
  // The placeholder filter holds the value to the entropy a random value of its length reaches.
  if (classes < 2 || !/\d/.test(value) || isPlaceholder(value, value, undefined)) return false;
  // A Supabase anon key, or another JWT a signed-out visitor gets, is public.
  if (/^e[wy][\w-]+\.e[wy][\w-]+\.[\w-]+$/.test(value)) {
    const role = decodeJwtPayload(value)?.role;
    if (role === 'anon' || role === 'authenticated') return false;
  }
  return true;
}

function nearestHost(content: string, start: number, end: number, knownHost: (host: string) => boolean): string | null {
  const from = Math.max(0, start - WINDOW);
  const text = content.slice(from, Math.min(content.length, end + WINDOW));
  let best: { host: string; distance: number } | null = null;
  const consider = (host: string, at: number) => {
    const distance = at + from < start ? start - (at + from) : at + from - end;
    if (!best || distance < best.distance) best = { host: host.toLowerCase(), distance };
  };
  for (const match of text.matchAll(URL_HOST)) consider(match[1]!, match.index);
  // A host written without a scheme counts when a row names it, or when it names itself an API host.
  for (const match of text.matchAll(BARE_HOST)) {
    const host = match[1]!.toLowerCase();
    if (knownHost(host) || /^api[.-]|\.api\./.test(host)) consider(host, match.index);
  }
  return (best as { host: string } | null)?.host ?? null;
}

/**
 * Values in credential positions, with the API host beside each. `knownHost` says whether a vendor
 * row names a host; such hosts also count when written without a scheme (`domain: "acme.eu.auth0.com"`).
 */
export function* positionedCredentials(
  content: string,
  knownHost: (host: string) => boolean,
): Iterable<PositionedCredential> {
  for (const match of content.matchAll(POSITION)) {
    let nameStart = match.index;
    while (nameStart > 0 && match.index - nameStart < 60 && NAME_CHAR.test(content[nameStart - 1]!)) nameStart -= 1;
    const name = content.slice(nameStart, match.index) + match.groups!.word!;
    if (NOT_A_CREDENTIAL.test(name)) continue;
    const { value: quoted, line, bare: unquoted } = match.groups!;
    const bare = unquoted !== undefined;
    const value = quoted ?? line ?? unquoted!;
    if (!looksLikeKey(value)) continue;
    const end = match.index + match[0].length - (quoted === undefined ? 0 : 1);
    const start = end - value.length;
    let host = nearestHost(content, start, end, knownHost);
    // A vendor's own API host counts even under a public parent domain (api.github.com under github.com).
    if (
      host &&
      (/^\d+(?:\.\d+){3}$/.test(host) || (!knownHost(host) && PUBLIC_HOSTS.some((entry) => hostMatches(host!, entry))))
    )
      host = null;
    yield { start, end, value, name, host, bare };
  }
}
