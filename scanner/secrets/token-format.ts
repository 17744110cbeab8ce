/**
 * A credential format as data: literal parts (a prefix, a separator, a suffix; a list is a choice)
 * and random parts (an alphabet and a length range). One description gives the scanner its pattern
 * and the tests their samples, so a row cannot claim a format its pattern does not find.
 */
export const ALPHABETS = {
  hex: '0123456789abcdef',
  HEX: '0123456789ABCDEF',
  hexAnyCase: '0123456789abcdefABCDEF',
  digits: '0123456789',
  letters: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  base62: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  lower36: '0123456789abcdefghijklmnopqrstuvwxyz',
  upper36: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  base32: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
  base32lower: 'abcdefghijklmnopqrstuvwxyz234567',
  bech32upper: 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L',
  base64url: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_',
  base64: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/',
  /** Base64url with the dots and equals signs some vendors put in their tokens. */
  tokenChars: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_.=',
} as const;
export type Alphabet = keyof typeof ALPHABETS;

export interface RandomPart {
  chars: Alphabet;
  length: readonly [number, number];
}
export type FormatPart = string | readonly string[] | RandomPart;
export type TokenFormat = readonly FormatPart[];

/** A random part of `min` to `max` (default `min`) characters. */
export const chars = (alphabet: Alphabet, min: number, max = min): RandomPart => ({
  chars: alphabet,
  length: [min, max],
});

/** A UUID's 8-4-4-4-12 hex groups, lower case. */
export const UUID: TokenFormat = [
  chars('hex', 8),
  '-',
  chars('hex', 4),
  '-',
  chars('hex', 4),
  '-',
  chars('hex', 4),
  '-',
  chars('hex', 12),
];

export const escapeLiteral = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const escapeClass = (text: string) => text.replace(/[\]\\^-]/g, '\\$&');
const isRandom = (part: FormatPart): part is RandomPart => typeof part === 'object' && 'chars' in part;

const partSource = (part: FormatPart) =>
  isRandom(part)
    ? `[${escapeClass(ALPHABETS[part.chars])}]{${part.length[0]},${part.length[1]}}`
    : typeof part === 'string'
      ? escapeLiteral(part)
      : `(?:${[...part]
          .sort((a, b) => b.length - a.length)
          .map(escapeLiteral)
          .join('|')})`;

/**
 * The pattern of a format: it starts where a token starts and ends where the last part's characters
 * end; the `body` group runs from the first random part to the end, which the placeholder filter judges.
 */
export function formatPattern(format: TokenFormat): RegExp {
  const firstRandom = format.findIndex(isRandom);
  const head = format.slice(0, firstRandom).map(partSource).join('');
  const body = format.slice(firstRandom).map(partSource).join('');
  const last = format[format.length - 1]!;
  const tail = isRandom(last) ? escapeClass(ALPHABETS[last.chars]) : '';
  return new RegExp(`(?<![\\w-])${head}(?<body>${body})(?![\\w${tail}-])`, 'g');
}

/** The lowercase literals a script must contain for the format to occur in it: its leading literal. */
export function formatKeywords(format: TokenFormat): string[] {
  const first = format[0];
  if (first === undefined || isRandom(first)) return [];
  return (typeof first === 'string' ? [first] : [...first]).map((literal) => literal.toLowerCase());
}

/** Every part of a format, for the tests that generate samples from it. */
export const formatParts = (format: TokenFormat) =>
  format.map((part) =>
    isRandom(part)
      ? { kind: 'random' as const, alphabet: ALPHABETS[part.chars], length: part.length }
      : { kind: 'literal' as const, choices: typeof part === 'string' ? [part] : [...part] },
  );
