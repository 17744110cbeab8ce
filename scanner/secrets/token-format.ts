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

// A literal that starts with a separator (`;Secret=`) is its own boundary: the character before it may be a letter.
const startsLikeWord = (part: FormatPart) =>
  isRandom(part) || (typeof part === 'string' ? [part] : part).some((choice) => /^[\w-]/.test(choice));

const minLength = (part: FormatPart) =>
  typeof part === 'string' ? part.length : isRandom(part) ? 0 : Math.min(...part.map((choice) => choice.length));

/** A format's pattern (its source: compiled global, and sticky for its anchors) and the literals it starts at. */
export interface CompiledFormat {
  source: string;
  anchors: string[];
}

/**
 * The pattern of a format. It starts at the format's anchor, its leading literal or else its longest
 * literal, with the parts before the anchor read behind it: the scan finds the anchors with indexOf and
 * runs the pattern only there. The token starts where a token starts and ends where the last part's
 * characters end; for a leading anchor, the `body` group is the random part the placeholder filter judges.
 */
export function compileFormat(format: TokenFormat): CompiledFormat {
  const anchorAt = isRandom(format[0]!)
    ? format.reduce<number>(
        (best, part, i) => (!isRandom(part) && (best < 0 || minLength(part) > minLength(format[best]!)) ? i : best),
        -1,
      )
    : 0;
  if (anchorAt < 0) throw new Error('a format needs a literal part to anchor on');
  const anchor = format[anchorAt]!;
  const last = format[format.length - 1]!;
  const tail = isRandom(last) ? escapeClass(ALPHABETS[last.chars]) : '';
  const end = `(?![\\w${tail}-])`;
  const before = format.slice(0, anchorAt).map(partSource).join('');
  const after = format
    .slice(anchorAt + 1)
    .map(partSource)
    .join('');
  const source =
    anchorAt === 0
      ? `${startsLikeWord(anchor) ? '(?<![\\w-])' : ''}${partSource(anchor)}(?<body>${after})${end}`
      : // The part read behind the anchor is the `lead` group, so the match starts there; no `body`:
        // the whole value is what the placeholder filter judges.
        `${partSource(anchor)}(?<=(?<![\\w-])(?<lead>${before})${partSource(anchor)})${after}${end}`;
  return { source, anchors: isRandom(anchor) ? [] : typeof anchor === 'string' ? [anchor] : anchor.filter(Boolean) };
}

/** Every part of a format, for the tests that generate samples from it. */
export const formatParts = (format: TokenFormat) =>
  format.map((part) =>
    isRandom(part)
      ? { kind: 'random' as const, alphabet: ALPHABETS[part.chars], length: part.length }
      : { kind: 'literal' as const, choices: typeof part === 'string' ? [part] : [...part] },
  );
