import { MAIL_PAGES } from '../domain/endpoints.ts';
import { KEY_PREFIX } from '../infra/api-key-format.ts';

// API keys must never reach a log line, wherever they appear: a URL (?api_key=...), a header, a body
// echoed in an error. Anything shaped like a key is cut to its prefix.
const KEY_SHAPED = new RegExp(`${KEY_PREFIX}[0-9A-Za-z]{8,}`, 'g');
const REDACTED = `${KEY_PREFIX}[REDACTED]`;

export const redactKeyText = (text: string) => text.replace(KEY_SHAPED, REDACTED);

/** A copy of a log object with every key-shaped string redacted (bounded depth; cycles stop there). */
export function redactKeys(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactKeyText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (value instanceof Error)
    return {
      type: value.name,
      message: redactKeyText(value.message),
      stack: value.stack && redactKeyText(value.stack),
    };
  if (Array.isArray(value)) return value.map((item) => redactKeys(item, depth + 1));
  // Requests and replies are left to their serializers (which redact the URL); copying them here
  // would lose the getters those serializers read.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactKeys(item, depth + 1)]));
}

const KEY_IN_TEXT = new RegExp(`${KEY_PREFIX}[0-9A-Za-z]{8,}`);
const KEY_PARAMETER = /[?&](api_key|apikey|api-key|access_token|token)=/i;

/** The pages links in mail open carry their one-time `token` in the query, as mail clients need (docs/notifications.md). */
const MAIL_PAGE_PATHS = new Set<string>(Object.values(MAIL_PAGES));

/** Does a URL carry something that looks like an API key (in any parameter)? */
export const urlCarriesKey = (url: string) => {
  const query = url.indexOf('?');
  if (query === -1) return false;
  if (MAIL_PAGE_PATHS.has(url.slice(0, query))) return KEY_IN_TEXT.test(url.slice(query));
  let text = url.slice(query);
  try {
    text = decodeURIComponent(text);
  } catch {
    // A broken escape is judged as written.
  }
  return KEY_IN_TEXT.test(text) || KEY_PARAMETER.test(text);
};
