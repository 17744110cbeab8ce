/**
 * One placeholder filter for every kind of credential: documentation examples (AWS's EXAMPLE keys),
 * template markers, "your-…-here", runs of x, repeated or sequential characters, and values with too
 * little entropy for a random key. A live key is random: none of these fit it.
 */
const PLACEHOLDER_WORDS =
  /EXAMPLE|x{6,}|X{6,}|\*{4,}|\.\.\.|…|<[^>]*>|\$\{|\{\{|%s|your[-_ ]?(api[-_ ]?)?(key|token|secret)|your[-_ ][\w-]{0,40}?(key|token|secret)|placeholder|dummy|redacted|changeme|replace[-_]?me|insert[-_]?here|\/\/(user(name)?|root|admin):(pass(word)?|secret|changeme)@/i;
/**
 * Words in place of randomness (`SlackAppConfigurationAccessTokenHere`, `YourApiKeyGoesHere`): three
 * or more of the words placeholders are written with. A random key spells one of them by chance now
 * and then, three almost never; letters-only keys (Hugging Face's) stay keys.
 */
const PLACEHOLDER_VOCABULARY =
  /your|api|access|token|key|secret|here|goes|config|app|example|sample|dummy|fake|insert|replace|password|value|client|placeholder|generated/gi;
const wordsForRandomness = (random: string) => (random.match(PLACEHOLDER_VOCABULARY)?.length ?? 0) >= 3;
/** Ids repeated or counting in place of real ones (`xoxb-1234-1234-1234-…`, `…-123456789-…`). */
const REPEATED_IDS =
  /(?:^|[-_.:])(\d{3,14})[-_.:]\1(?:[-_.:]|$)|(?:^|[-_.:])(?:0123|1234|12345|123456|1234567|12345678|123456789)(?:[-_.:]|$)/;
const DEFAULT_ENTROPY = 3;
const RUN = 6;

/** Shannon entropy of a value, in bits per character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) bits -= (count / value.length) * Math.log2(count / value.length);
  return bits;
}

/** A run of RUN characters that repeat (aaaaaa) or count up or down (123456, abcdef, fedcba), or two counts interleaved (a1b2c3d4e5f6). */
export function hasRun(value: string, run = RUN): boolean {
  let same = 1;
  let up = 1;
  let down = 1;
  // Two counts interleaved (a1b2c3d4e5f6): every other character counts up.
  let interleaved = 2;
  for (let i = 1; i < value.length; i += 1) {
    const step = value.charCodeAt(i) - value.charCodeAt(i - 1);
    same = step === 0 ? same + 1 : 1;
    up = step === 1 ? up + 1 : 1;
    down = step === -1 ? down + 1 : 1;
    interleaved = i >= 2 && value.charCodeAt(i) - value.charCodeAt(i - 2) === 1 ? interleaved + 1 : 2;
    if (same >= run || up >= run || down >= run || interleaved >= 2 * run) return true;
  }
  return false;
}

/**
 * Whether a credential is a placeholder. `body` is its random part (default: the value after a
 * lowercase prefix such as `sk_live_`); `minEntropy` the least entropy its format has (0 for
 * passwords, which are not random).
 */
export function isPlaceholder(secret: string, body: string | undefined, minEntropy: number | undefined): boolean {
  if (PLACEHOLDER_WORDS.test(secret)) return true;
  if (minEntropy === 0) return false;
  const random = body ?? secret.replace(/^[a-z0-9]{1,10}(?:[_-][a-z0-9]{1,10}){0,3}[_-]/i, '');
  if (REPEATED_IDS.test(secret) || wordsForRandomness(random)) return true;
  // Short values cannot reach the entropy of long ones: the bar is what a random value of that length reaches.
  const bar = Math.min(minEntropy ?? DEFAULT_ENTROPY, Math.log2(random.length) * 0.6);
  // Long blobs (private keys) have runs by structure (OpenSSH's zero bytes); tokens do not.
  return (
    (random.length <= 128 && hasRun(random)) ||
    new Set(random).size < Math.min(8, random.length / 3) ||
    entropy(random) < bar
  );
}
