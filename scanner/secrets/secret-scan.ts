import { lintSource } from '@secretlint/core';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { hostMatches, positionedCredentials } from './host-credentials.ts';
import { isPublishedKey } from './published-keys.ts';
import { isPlaceholder } from './secret-placeholders.ts';
import type { Near, SecretRule } from './secret-rule.ts';
import { SECRET_KIND_NAMES, SECRET_RULES, type SecretKind } from './secret-rules.ts';
import { compileFormat } from './token-format.ts';
import { timeSlicer } from '../turns.ts';

/** A credential found in client code, already redacted: the secret itself never leaves findSecrets. */
export interface RedactedSecret {
  kind: SecretKind;
  /** At most the first 8 and the last 4 characters of the credential, e.g. `sk_live_…a9Qz`. */
  preview: string;
  length: number;
  /** The API host beside the credential, when that host is how it was found. */
  host?: string;
}

const RULES = SECRET_KIND_NAMES.map((kind) => [kind, SECRET_RULES[kind] as SecretRule] as const);

/** The preset's rules for the kinds the table leaves to secretlint; its other rules are the table's. */
const SECRETLINT_KIND = new Map<string, SecretKind>(
  RULES.flatMap(([kind, rule]) => (rule.secretlint ?? []).map((id) => [id, kind] as const)),
);
// A few rules per run, so the work can yield between runs; each run also costs a fixed pass over the text.
const SECRETLINT_RULES = recommendedRules.filter((rule) => SECRETLINT_KIND.has(rule.meta.id));
const SECRETLINT_CONFIGS: SecretLintCoreConfig[] = Array.from(
  { length: Math.ceil(SECRETLINT_RULES.length / 4) },
  (_, i) => ({
    rules: SECRETLINT_RULES.slice(i * 4, i * 4 + 4).map((rule) => ({ id: rule.meta.id, rule })),
  }),
);

// The `d` flag gives the offsets of the `secret` group; compiled once. A format without context of
// its own runs only where one of its anchors occurs: one pass finds them all, so a hundred
// formats do not cost a hundred passes over every script. Formats with context (`near`) and formats
// whose anchor is one character run as whole passes, the former only in scripts with their context.
const MIN_ANCHOR = 2;
interface Pattern {
  regex: RegExp;
  near: readonly Near[];
  anchors?: readonly string[];
}
const PATTERNS = new Map<SecretKind, Pattern[]>(
  RULES.map(([kind, rule]) => [
    kind,
    [
      ...(rule.patterns ?? []).map((entry) => {
        const { regex, near } = entry instanceof RegExp ? { regex: entry, near: rule.near } : entry;
        return { regex: new RegExp(regex.source, `${regex.flags}d`), near: near ?? [] };
      }),
      ...(rule.formats ?? [])
        .map(compileFormat)
        .map(({ source, anchors }) =>
          !rule.near && anchors.every((anchor) => anchor.length >= MIN_ANCHOR) && anchors.length > 0
            ? { regex: new RegExp(source, 'yd'), near: [], anchors }
            : { regex: new RegExp(source, 'gd'), near: rule.near ?? [] },
        ),
    ],
  ]),
);

const ANCHOR_LIST = [...new Set([...PATTERNS.values()].flat().flatMap((pattern) => pattern.anchors ?? []))];
/** Lower-case words whose presence decides whether a row runs at all: its keywords and its context's words. */
const WORD_LIST = [
  ...new Set(
    RULES.flatMap(([kind, rule]) => [
      ...(rule.keywords ?? []),
      ...PATTERNS.get(kind)!.flatMap((pattern) => pattern.near.flatMap((near) => near.words ?? [])),
    ]),
  ),
];

// One pass over a script finds every anchor (case-sensitive) and every word (ASCII case-insensitive):
// a table lookup per character on its two lower-cased low bytes finds where one may start. Before,
// each row's keywords were a String.includes over the whole script: about 150 passes of 8 MB.
const ASCII_LOWER = (code: number) => (code >= 65 && code <= 90 ? code | 32 : code);
const pairOf = (first: number, second: number) => ((ASCII_LOWER(first) & 0xff) << 8) | (ASCII_LOWER(second) & 0xff);
/** How common a character is in minified code, lower-cased: a needle is looked up by its rarest two. */
const commonness = (char: string) =>
  /[etaoinsrlcdhu.,;:()=" ]/.test(char) ? 3 : /[a-z0-9{}[\]!&|+<>]/.test(char) ? 2 : 1;
interface Needle {
  text: string;
  word: boolean;
  /** Where in the text its lookup pair stands. */
  offset: number;
}
const NEEDLES_BY_PAIR: Array<Needle[] | undefined> = new Array(65_536);
for (const [text, word] of [
  ...ANCHOR_LIST.map((text) => [text, false] as const),
  ...WORD_LIST.map((text) => [text, true] as const),
]) {
  if (text.length < MIN_ANCHOR || (word && text !== text.toLowerCase()))
    throw new Error(`a keyword or anchor needs two characters, a keyword lower case: ${text}`);
  const lowered = text.toLowerCase();
  let offset = 0;
  const cost = (at: number) => commonness(lowered[at]!) + commonness(lowered[at + 1]!);
  for (let at = 1; at < text.length - 1; at++) if (cost(at) < cost(offset)) offset = at;
  const pair = pairOf(text.charCodeAt(offset), text.charCodeAt(offset + 1));
  NEEDLES_BY_PAIR[pair] = [...(NEEDLES_BY_PAIR[pair] ?? []), { text, word, offset }];
}

/** Whether a lower-case word stands at `at`, ASCII letters compared without case. */
function wordAt(content: string, at: number, word: string): boolean {
  if (at + word.length > content.length) return false;
  for (let j = 0; j < word.length; j++) {
    if (ASCII_LOWER(content.charCodeAt(at + j)) !== word.charCodeAt(j)) return false;
  }
  return true;
}

interface ScriptIndex {
  /** Where each anchor occurs, overlapping occurrences included. */
  positions: Map<string, number[]>;
  /** The words that occur. */
  words: Set<string>;
}

async function indexScript(content: string, checkpoint: () => Promise<void>): Promise<ScriptIndex> {
  const positions = new Map<string, number[]>();
  const words = new Set<string>();
  let previous = content.charCodeAt(0);
  for (let i = 1; i < content.length; i++) {
    const current = content.charCodeAt(i);
    const needles = NEEDLES_BY_PAIR[pairOf(previous, current)];
    previous = current;
    if (i % 262_144 === 0) await checkpoint();
    if (needles === undefined) continue;
    for (const { text, word, offset } of needles) {
      const at = i - 1 - offset;
      if (at < 0) continue;
      if (word) {
        if (!words.has(text) && wordAt(content, at, text)) words.add(text);
        continue;
      }
      if (!content.startsWith(text, at)) continue;
      const list = positions.get(text);
      if (list) list.push(at);
      else positions.set(text, [at]);
    }
  }
  return { positions, words };
}

/** The matches of a pattern: all of them, or, for an anchored format, those that start at its anchors. */
function* matchesOf(content: string, pattern: Pattern, positions: Map<string, number[]>): Iterable<RegExpExecArray> {
  const { regex, anchors } = pattern;
  if (!anchors) {
    yield* content.matchAll(regex);
    return;
  }
  const starts = [...new Set(anchors.flatMap((anchor) => positions.get(anchor) ?? []))].sort((a, b) => a - b);
  for (const at of starts) {
    regex.lastIndex = at;
    const match = regex.exec(content);
    if (match) yield match;
  }
}

/** Where a match's credential lies: its `secret` group, else the match and any group read behind it (a look-behind). */
function credentialSpan(match: RegExpExecArray): [number, number] {
  const groups = match.indices?.groups ?? {};
  return (
    groups.secret ?? [
      Math.min(match.index, ...Object.values(groups).map((range) => range?.[0] ?? match.index)),
      match.index + match[0].length,
    ]
  );
}

/** Each row's patterns as whole-value tests (fresh global copies: a value is tested from its start). */
const WHOLE_VALUE = new Map<SecretKind, RegExp[]>(
  [...PATTERNS].map(([kind, patterns]) => [kind, patterns.map(({ regex }) => new RegExp(regex.source, 'gd'))]),
);

/**
 * Whether a value is a row's credential as a whole: one of the row's patterns spans all of it, and
 * its checksum and structure hold. A row with no pattern (a vendor known only by its API host)
 * cannot say; null then.
 */
export function fitsRow(kind: SecretKind, value: string): boolean | null {
  const tests = WHOLE_VALUE.get(kind) ?? [];
  const rule: SecretRule = SECRET_RULES[kind];
  if (tests.length === 0 && !rule.bareShapes) return null;
  if (rule.bareShapes?.some((shape) => shape.test(value))) return true;
  if (!(rule.issued?.(value) ?? true) || !(rule.valid?.(value) ?? true)) return false;
  // A row whose credential is the value of a `Name=` pair (AccountKey=…) takes the value alone too.
  const names = rule.previewBody
    ? (rule.formats ?? []).flatMap((format) => {
        const lead = format[0];
        return typeof lead === 'string' ? [lead] : Array.isArray(lead) ? lead : [];
      })
    : [];
  return [value, ...names.filter((name) => name.endsWith('=')).map((name) => name + value)].some((whole) =>
    tests.some((regex) => {
      for (const match of whole.matchAll(regex)) {
        const [start, end] = credentialSpan(match);
        if (start === 0 && end === whole.length) return true;
      }
      return false;
    }),
  );
}

/**
 * Characters no token contains and no token stands beside: a format's match that touches one is a
 * slice of a longer string (`sk_live_…?…`), not a credential. URLs (webhooks, connection strings) go
 * on into their query and fragment and are judged whole. A tag may follow a token in HTML text.
 */
const GLUE = /[?#]/;
const isSlice = (content: string, start: number, end: number) =>
  !content.slice(start, end).includes('://') && (GLUE.test(content[end] ?? '') || GLUE.test(content[start - 1] ?? ''));

/** The rows that name API hosts, in table order: the first whose host matches names the credential. */
const HOST_ROWS = RULES.filter(([, rule]) => rule.hosts);
const vendorsOfHost = (host: string): SecretKind[] =>
  HOST_ROWS.filter(([, rule]) => rule.hosts!.some((entry) => hostMatches(host, entry))).map(([kind]) => kind);

/**
 * The vendor a position's name names (`SPARKPOST_API_KEY`, `okta_token`): the first word of a row's
 * label or its kind, at least four letters. Rows whose vendor also issues public keys of no format
 * (Algolia's search keys) and rows of no single vendor do not take part.
 */
const compact = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
const NAMED_ROWS = RULES.filter(([, rule]) => rule.byName !== false);
// A row's own kind word first (`alibaba`), then its label's (`Alibaba DashScope` names Alibaba too).
const NAME_WORDS = [
  ...NAMED_ROWS.map(([kind]) => [compact(kind.split('_')[0]!), kind] as const),
  ...NAMED_ROWS.map(([kind, rule]) => [compact(rule.label.split(/[\s(-]/)[0]!), kind] as const),
].filter(([word]) => word.length >= 4);
const vendorsOfName = (name: string): SecretKind[] => {
  const words = compact(name);
  return [...new Set(NAME_WORDS.filter(([word]) => words.includes(word)).map(([, kind]) => kind))];
};

interface Candidate {
  kind: SecretKind;
  start: number;
  end: number;
  /** The credential as a program would use it (JS string escapes undone). */
  secret: string;
  /** The rule's `body` group, when it has one. */
  body?: string;
  /** Not a placeholder, structurally valid, with the context its format needs. */
  accepted: boolean;
  /** A placeholder, or a value whose checksum says it was never issued: no credential at all. */
  refused?: boolean;
  host?: string;
}

// Escaped once in a JS string, or twice in a JSON string inside one.
const undoEscapes = (text: string) => text.replace(/\\+n/g, '\n').replace(/\\+r/g, '\r').replace(/\\+t/g, '\t');

function hasContext(content: string, start: number, end: number, near: readonly Near[]): boolean {
  return near.every(({ pattern, within }) =>
    pattern.test(within === undefined ? content : content.slice(Math.max(0, start - within), end + within)),
  );
}

function* candidates(
  content: string,
  { positions, words: present }: ScriptIndex,
  kind: SecretKind,
  rule: SecretRule,
): Iterable<Candidate> {
  if (rule.keywords && !rule.keywords.some((keyword) => present.has(keyword))) return;
  const judge = (start: number, end: number, body: string | undefined, near: readonly Near[]): Candidate => {
    const secret = undoEscapes(content.slice(start, end));
    const refused =
      isSlice(content, start, end) ||
      isPublishedKey(secret) ||
      (body !== undefined && isPublishedKey(undoEscapes(body))) ||
      isPlaceholder(secret, body, rule.entropy) ||
      !(rule.issued?.(secret) ?? true);
    const accepted = !refused && (rule.valid?.(secret) ?? true) && hasContext(content, start, end, near);
    const unescaped = body === undefined ? undefined : undoEscapes(body);
    return { kind, start, end, secret, body: unescaped, accepted, refused };
  };
  for (const pattern of PATTERNS.get(kind)!) {
    const { near } = pattern;
    // Context that must stand near a match must stand somewhere in the script: a cheap test first.
    const stands = ({ pattern: context, words }: Near) =>
      words ? words.some((word) => present.has(word)) : context.test(content);
    if (!near.every(stands)) continue;
    for (const match of matchesOf(content, pattern, positions)) {
      const [start, end] = credentialSpan(match);
      yield judge(start, end, match.groups?.body, near);
    }
  }
  if (rule.find)
    for (const block of rule.find(content)) yield judge(block.start, block.end, block.body, rule.near ?? []);
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  a.start < b.end && b.start < a.end;

/**
 * The first characters of a secret, "…", and its last 4: an owner recognises which key to revoke.
 * At most a quarter of it leads (8 characters at most), so well under half shows of a key of 20 or
 * more; a secret under 8 characters shows half of itself at its end and nothing at its start.
 */
export function redact(secret: string): string {
  const tail = secret.length >= 8 ? 4 : Math.floor(secret.length / 2);
  const head = secret.length >= 8 ? Math.min(8, Math.floor(secret.length / 4), secret.length - 2 * tail) : 0;
  return `${secret.slice(0, head)}…${tail > 0 ? secret.slice(-tail) : ''}`;
}

/**
 * The one preview of every finding: redact of the secret part and its exact length. The secret part
 * is the whole token, or, for a rule whose credential is its `body`, that body: the password of a
 * connection URL, the key of an `AccountKey=` pair. Never a scheme, a key's name, a port or a path.
 */
function previewOf(kind: SecretKind, secret: string, body: string | undefined): { preview: string; length: number } {
  const rule: SecretRule = SECRET_RULES[kind];
  const part = rule.previewBody && body ? body : secret;
  return { preview: redact(part), length: part.length };
}

/**
 * Credentials in one script: the table's rows in order, then the secretlint rules the table leaves to
 * the preset. Text an earlier row claimed is not reported again by a later one; text any row judged
 * (a placeholder included) is not reported by secretlint.
 */
export async function findSecrets(content: string): Promise<RedactedSecret[]> {
  const checkpoint = timeSlicer();
  const index = await indexScript(content, checkpoint);
  const judged: Candidate[] = [];
  for (const [kind, rule] of RULES) {
    for (const candidate of candidates(content, index, kind, rule)) judged.push(candidate);
    await checkpoint();
  }
  const reported: Candidate[] = [];
  for (const candidate of judged) {
    if (candidate.accepted && !reported.some((other) => overlaps(other, candidate))) reported.push(candidate);
  }
  for (const config of SECRETLINT_CONFIGS) {
    const result = await lintSource({
      source: { filePath: 'client-code.js', content, ext: '.js', contentType: 'text' },
      options: { config, maskSecrets: true, noPhysicFilePath: true },
    });
    for (const message of result.messages) {
      const kind = SECRETLINT_KIND.get(message.ruleId);
      const [start, end] = message.range;
      if (!kind || judged.some((other) => overlaps(other, { start, end }))) continue;
      const secret = content.slice(start, end);
      if (!isPlaceholder(secret, undefined, undefined)) reported.push({ kind, start, end, secret, accepted: true });
    }
    await checkpoint();
  }
  // Last, values no row reports: named after the vendor their name or API host names, else after the host.
  // A value a row matched but could not attribute (a JWT that is no Supabase key) is still a key here;
  // a placeholder or a value whose checksum fails is not.
  for (const position of positionedCredentials(content, (name) => vendorsOfHost(name).length > 0)) {
    const { start, end, value, host } = position;
    const taken = (other: Candidate) => overlaps(other, position);
    if (judged.some((other) => other.refused && taken(other)) || reported.some(taken)) continue;
    // The vendors its name and its host name, in that order. Beside a vendor the table names, the
    // vendor's own format decides: a value that fits none of theirs is no key of theirs (a truncated
    // copy, another product's id), and no unnamed credential either.
    const vendors = [...vendorsOfName(position.name), ...(host && !position.bare ? vendorsOfHost(host) : [])];
    const kind =
      vendors.length > 0
        ? vendors.find((vendor) => fitsRow(vendor, value) !== false)
        : host && !position.bare
          ? 'api_credential'
          : undefined;
    // A key of no vendor the table knows is judged by shape alone: token characters only (a
    // password with punctuation, an e-mail address or a path beside a host is no API key).
    if (!kind || isPublishedKey(value) || (kind === 'api_credential' && /[^\w.~+/=:-]/.test(value))) continue;
    reported.push({ kind, start, end, secret: value, accepted: true, ...(host ? { host } : {}) });
  }
  await checkpoint();
  const found = new Map<string, RedactedSecret>();
  for (const { kind, secret, body, host } of reported) {
    const { preview, length } = previewOf(kind, secret, body);
    found.set(`${kind} ${preview} ${length} ${host ?? ''}`, { kind, preview, length, ...(host ? { host } : {}) });
  }
  return [...found.values()];
}
