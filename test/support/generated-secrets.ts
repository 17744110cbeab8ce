import { randomBytes } from 'node:crypto';
import type { SecretRule } from '../../scanner/secrets/secret-rule.ts';
import { SECRET_KIND_NAMES, SECRET_RULES, type SecretKind } from '../../scanner/secrets/secret-rules.ts';
import { hasRun, isPlaceholder } from '../../scanner/secrets/secret-placeholders.ts';
import { formatParts, type TokenFormat } from '../../scanner/secrets/token-format.ts';

/**
 * A corpus generated from the rule table itself, new for every run: for every row with formats, values
 * that walk each format's bounds (shortest and longest random parts, every literal choice, every
 * character of every alphabet), and for every row with API hosts, a random key in the credential
 * positions of browser code beside each host. Nothing here is another project's test data.
 */
export interface GeneratedCase {
  kind: SecretKind;
  secret: string;
  code: string;
  what: string;
}

const classes = (alphabet: string) => [/[a-z]/, /[A-Z]/, /\d/].filter((re) => re.test(alphabet));

/** Random characters of an alphabet containing `include`, mixing the alphabet's letter cases and digits as random keys do. */
function randomOf(alphabet: string, length: number, include = ''): string {
  for (;;) {
    const chars = Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]!);
    // Put the characters to include in distinct random places.
    const places = Array.from({ length }, (_, i) => i).sort(() => randomBytes(1)[0]! - 128);
    [...include.slice(0, length)].forEach((char, i) => {
      chars[places[i]!] = char;
    });
    const value = chars.join('');
    const missing = include.slice(0, length) && [...include.slice(0, length)].some((char) => !value.includes(char));
    const mixed = length < 12 || classes(alphabet).every((re) => re.test(value));
    // Five in a row at most: the placeholder filter refuses six, as it should.
    if (!missing && mixed && !hasRun(value, 5)) return value;
  }
}

/** A random value that is no placeholder (a draw of 32 hex digits falls below the entropy bar now and then). */
function keyLike(alphabet: string, length: number): string {
  for (;;) {
    const value = randomOf(alphabet, length);
    if (!isPlaceholder(value, value, undefined)) return value;
  }
}

/** Values of one format: shortest, longest, each literal choice, and every alphabet character at least once. */
export function walkFormat(format: TokenFormat): string[] {
  const parts = formatParts(format);
  const choices = Math.max(1, ...parts.map((part) => (part.kind === 'literal' ? part.choices.length : 1)));
  // Enough values to put every character of the largest alphabet into the shortest random part.
  const coverage = Math.max(
    1,
    ...parts.map((part) =>
      part.kind === 'random' && part.length[0] > 0
        ? Math.ceil(part.alphabet.length / Math.max(1, part.length[0] - 2))
        : 1,
    ),
  );
  const count = Math.max(2, choices, coverage);
  const value = (i: number) =>
    parts
      .map((part) => {
        if (part.kind === 'literal') return part.choices[i % part.choices.length]!;
        const [min, max] = part.length;
        const length = i === 1 ? max : i === 0 ? min : min + ((i * 5) % (max - min + 1));
        if (length === 0) return '';
        const slice = Math.max(1, min - 2);
        const include = part.alphabet.slice((i * slice) % part.alphabet.length).slice(0, Math.min(slice, length));
        return randomOf(part.alphabet, length, include);
      })
      .join('');
  // Parts drawn apart can still add up to too few distinct characters for a random key (a UUID of
  // eight hex digits): the scanner rightly calls that a placeholder, so draw again.
  const lead = parts[0]!.kind === 'literal' ? parts[0]!.choices : [];
  const random = (secret: string) => secret.slice(lead.find((choice) => secret.startsWith(choice))?.length ?? 0);
  return Array.from({ length: count }, (_, i) => {
    for (;;) {
      const secret = value(i);
      if (!isPlaceholder(secret, random(secret), undefined)) return secret;
    }
  });
}

/** The words and host a row's context needs, for code that gives it (without the host: a value no host vouches for). */
function contextOf(rule: SecretRule, withHost = true): string {
  const word = (rule.near?.[0]?.pattern.source.split('|')[0] ?? '').replace(/\\/g, '');
  const host = withHost && rule.hosts?.[0] ? hostFor(rule.hosts[0]) : '';
  return [word && `/* ${word} */`, host && `const Vh="https://${host}/v1";`].join('');
}

/** A concrete host for a row's host entry: a prefix gets a region, a bare registrable domain a subdomain. */
export function hostFor(entry: string): string {
  if (entry.endsWith('.')) return `${entry}eu-west-1.amazonaws.com`;
  return entry.split('.').length === 2 ? `acme.${entry}` : entry;
}

/** Bundle-style code around a credential: a minified client constructor, the row's context before it. */
const inBundle = (secret: string, before: string) =>
  `${before}const Xr=class{constructor(t){this.o=t}};export const client=new Xr({apiKey:${JSON.stringify(secret)}});`;

export function formatCases(): GeneratedCase[] {
  return SECRET_KIND_NAMES.flatMap((kind) => {
    const rule: SecretRule = SECRET_RULES[kind];
    return (rule.formats ?? []).flatMap((format, f) =>
      walkFormat(format).map((secret, i) => ({
        kind,
        secret,
        code: inBundle(secret, contextOf(rule)),
        what: `${kind} format ${f} value ${i}`,
      })),
    );
  });
}

/** Whether a row knows its vendor's format (patterns or formats): beside its host, only that format is its key. */
export const knowsFormat = (rule: SecretRule) => Boolean(rule.formats?.length || rule.patterns?.length);

/**
 * A key of no known format, in each credential position of browser code, beside each host a row
 * names: the row's vendor's key when the row knows no format, and nothing at all when it does.
 */
export function hostCases(): GeneratedCase[] {
  return SECRET_KIND_NAMES.flatMap((kind) => {
    const rule: SecretRule = SECRET_RULES[kind];
    return (rule.hosts ?? []).flatMap((entry) => {
      const host = hostFor(entry);
      // Not "6L…": forty characters so starting are a reCAPTCHA site key, public by design.
      const key = `k${keyLike('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 39)}`;
      const hex = keyLike('0123456789abcdef', 32);
      return [
        {
          kind,
          secret: key,
          code: `async function Qa(t){return(await fetch("https://${host}/v1/items",{method:"GET",headers:{Authorization:"Bearer ${key}","Content-Type":"application/json"}})).json()}`,
          what: `${kind} Bearer beside ${host}`,
        },
        {
          kind,
          secret: hex,
          code: `const Ko=new Xr({apiKey:"${hex}",baseURL:"https://${host}/api"});`,
          what: `${kind} apiKey beside ${host}`,
        },
        {
          kind,
          secret: key,
          code: `const Hd=new Headers;Hd.set("x-api-key","${key}");fetch("https://${host}/v2/send",{headers:Hd});`,
          what: `${kind} x-api-key beside ${host}`,
        },
      ];
    });
  });
}

/** A character the alphabet lacks that may stand inside a string literal, for a value that is no token. */
const outsider = (alphabet: string) => ['!', '*', '~', '^', '|'].find((char) => !alphabet.includes(char))!;

/**
 * Values each format's vendor never issues, each in browser code beside the row's host and context:
 * its prefix changed, a character outside its alphabet, a `?` inside (a slice of a longer string).
 * None is that vendor's key, and beside the vendor's host none is an unnamed credential either.
 */
export function formatMisfits(): GeneratedCase[] {
  return SECRET_KIND_NAMES.flatMap((kind) => {
    const rule: SecretRule = SECRET_RULES[kind];
    return (rule.formats ?? []).flatMap((format, f) => {
      const parts = formatParts(format);
      const [valid] = walkFormat(format);
      const longest = parts.reduce(
        (best, part, i) => (part.kind === 'random' && part.length[0] > (parts[best]?.length?.[0] ?? 0) ? i : best),
        -1,
      );
      if (longest < 0 || !valid) return [];
      // The value with something put in the middle of its longest random part, and that part one longer.
      const within = (char: string) =>
        parts
          .map((part, i) => {
            if (part.kind === 'literal') return part.choices[0]!;
            const length = Math.max(part.length[0], 1);
            if (i !== longest) return randomOf(part.alphabet, length);
            const half = Math.floor(length / 2);
            return `${randomOf(part.alphabet, half)}${char}${randomOf(part.alphabet, length - half)}`;
          })
          .join('');
      const cases = [
        {
          secret: within(outsider(parts[longest]!.kind === 'random' ? parts[longest]!.alphabet : '')),
          what: 'a character outside its alphabet',
        },
        { secret: within('?'), what: 'a ? inside' },
      ];
      const lead = parts[0]!;
      if (lead.kind === 'literal' && lead.choices[0]!.length >= 2) {
        const prefix = lead.choices[0]!;
        cases.push({ secret: `zq${prefix.slice(2)}${valid.slice(prefix.length)}`, what: 'a wrong prefix' });
      }
      return cases.map(({ secret, what }) => ({
        kind,
        secret,
        code: inBundle(secret, contextOf(rule)),
        what: `${kind} format ${f} ${what}`,
      }));
    });
  });
}

/** Placeholders and too-short values of each format: never reported as the row's kind. */
export function formatNegatives(): GeneratedCase[] {
  return SECRET_KIND_NAMES.flatMap((kind) => {
    const rule: SecretRule = SECRET_RULES[kind];
    return (rule.formats ?? []).flatMap((format, f) => {
      const parts = formatParts(format);
      const build = (random: (alphabet: string, length: number) => string) =>
        parts
          .map((part) =>
            part.kind === 'literal' ? part.choices[0]! : random(part.alphabet, Math.max(part.length[0], 1)),
          )
          .join('');
      const placeholder = build((alphabet, length) => alphabet[alphabet.length - 1]!.repeat(length));
      const firstRandom = parts.findIndex((part) => part.kind === 'random' && part.length[0] > 1);
      const short = parts
        .map((part, i) =>
          part.kind === 'literal'
            ? part.choices[0]!
            : randomOf(part.alphabet, Math.max(0, part.length[0] - (i === firstRandom ? 1 : 0))),
        )
        .join('');
      return [
        {
          kind,
          secret: placeholder,
          code: inBundle(placeholder, contextOf(rule)),
          what: `${kind} format ${f} placeholder`,
        },
        {
          kind,
          secret: short,
          code: inBundle(short, contextOf(rule)),
          what: `${kind} format ${f} one too short`,
        },
      ];
    });
  });
}
