import { crc32 } from 'node:zlib';
import { decodeJwtPayload } from './jwt.ts';

/**
 * Structural checks of credential formats that carry one: a value that fails is not a credential of
 * that kind, whatever it looks like. Pure functions over the candidate text.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62Value(text: string): number {
  let value = 0;
  for (const char of text) value = value * 62 + BASE62.indexOf(char);
  return value;
}

/**
 * GitHub (2021) and npm (2021) tokens end in the CRC32 of their 30 random characters, in 6 base62
 * digits (github.blog, "Behind GitHub's new authentication token formats"; "npm's new access token format").
 */
export function base62Crc32Valid(token: string): boolean {
  const body = token.slice(token.indexOf('_') + 1);
  if (!/^[0-9A-Za-z]{36}$/.test(body)) return false;
  return base62Value(body.slice(30)) === crc32(body.slice(0, 30));
}

/** A Supabase key that bypasses row-level security: a JWT (any whitespace in its JSON) whose role is service_role. */
export const isServiceRoleJwt = (token: string) => decodeJwtPayload(token)?.role === 'service_role';

/**
 * A Discord bot token starts with the bot's user id (a snowflake of 17 to 20 digits) in base64
 * (discord.com/developers/docs/reference#authentication).
 */
export function isDiscordBotToken(token: string): boolean {
  const id = token.split('.')[0] ?? '';
  return /^\d{17,20}$/.test(Buffer.from(id, 'base64url').toString('latin1'));
}

/** A Mapbox secret token is `sk.` plus a base64url JSON payload naming the account (`{"u":…}`, base64 `eyJ1Ijoi`). */
export function isMapboxToken(token: string): boolean {
  const payload = token.split('.')[1] ?? '';
  if (payload.startsWith('eyJ1Ijoi')) return true;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null && typeof (claims as { u?: unknown }).u === 'string';
  } catch {
    return false;
  }
}

/** Random keys without a prefix mix upper case, lower case and digits; hashes and words do not. */
export const mixesCases = (value: string) => /[A-Z]/.test(value) && /[a-z]/.test(value) && /\d/.test(value);

/**
 * Database hosts of documentation and local development, never a leak: loopback, example domains and
 * names without a dot (a container's service name such as `db` or `postgres`, unreachable from outside).
 */
const LOCAL_HOST =
  /^(?:[\w-]+|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0|(?:[\w-]+\.)*example(?:\.(?:com|org|net))?|[\w.-]*\.(?:local|localhost|internal\.example|test|invalid))(?::\d+)?$/i;
const DOC_PASSWORD =
  /^(?:pass(?:word|wd)?|pwd|secret|changeme|postgres|root|admin|test|example|mysecretpassword|your[\w-]*|\$\{?\w+\}?|:\w+|%\w+%)$/i;

/** A connection URL with a password that could be used from elsewhere: a real host and no documentation password. */
export function isRemoteDatabaseUrl(url: string): boolean {
  const match = /:\/\/[^:@/]*:([^@]*)@([^/?#]*)/.exec(url);
  if (!match) return false;
  const hosts = match[2]!.split(',');
  return !DOC_PASSWORD.test(decodeURIComponentSafe(match[1]!)) && !hosts.every((host) => LOCAL_HOST.test(host));
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
