import { lintSource } from '@secretlint/core';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { hostMatches, positionedCredentials } from './host-credentials.ts';
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

/** The rows that name API hosts, in table order: the first whose host matches names the credential. */
const HOST_ROWS = RULES.filter(([, rule]) => rule.hosts);
const vendorOfHost = (host: string): SecretKind | undefined =>
  HOST_ROWS.find(([, rule]) => rule.hosts!.some((entry) => hostMatches(host, entry)))?.[0];

/**
 * The vendor a position's name names (`SPARKPOST_API_KEY`, `okta_token`): the first word of a row's
 * label or its kind, at least four letters. Rows whose vendor also issues public keys of no format
 * (Algolia's search keys) and rows of no single vendor do not take part.
 */
const compact = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
const NAME_WORDS = RULES.filter(([, rule]) => rule.byName !== false).flatMap(([kind, rule]) =>
  [compact(kind.split('_')[0]!), compact(rule.label.split(/[\s(-]/)[0]!)]
    .filter((word, i, all) => word.length >= 4 && all.indexOf(word) === i)
    .map((word) => [word, kind] as const),
);
const vendorOfName = (name: string): SecretKind | undefined => {
  const words = compact(name);
  return NAME_WORDS.find(([word]) => words.includes(word))?.[1];
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
    const refused = isPlaceholder(secret, body, rule.entropy) || !(rule.issued?.(secret) ?? true);
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
      const groups = match.indices?.groups ?? {};
      // The credential: the `secret` group, else the match and any group read behind it (a look-behind).
      const [start, end] = groups.secret ?? [
        Math.min(match.index, ...Object.values(groups).map((range) => range?.[0] ?? match.index)),
        match.index + match[0].length,
      ];
      yield judge(start, end, match.groups?.body, near);
    }
  }
  if (rule.find)
    for (const block of rule.find(content)) yield judge(block.start, block.end, block.body, rule.near ?? []);
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  a.start < b.end && b.start < a.end;

/** At most the first 8 and the last 4 characters (fewer of a short value), so at most a third shows. */
export function redact(secret: string): string {
  const head = Math.min(8, Math.floor(secret.length / 4));
  const tail = secret.length >= 16 ? 4 : Math.floor(secret.length / 4);
  return `${secret.slice(0, head)}…${tail > 0 ? secret.slice(-tail) : ''}`;
}

/**
 * What a finding shows of a credential: redact's head and tail, or, for a rule whose credential is
 * its `body` (a connection string's password), the match's scheme and the body's own last 4
 * characters and length.
 */
function previewOf(kind: SecretKind, secret: string, body: string | undefined): { preview: string; length: number } {
  const rule: SecretRule = SECRET_RULES[kind];
  if (!rule.previewBody || !body) return { preview: redact(secret), length: secret.length };
  const scheme = secret.slice(0, Math.min(8, Math.max(0, secret.indexOf('://'))));
  // As redact: the last 4 characters, fewer of a short password, so at most a quarter of it shows.
  const tail = body.length >= 16 ? 4 : Math.floor(body.length / 4);
  return { preview: `${scheme}…${tail > 0 ? body.slice(-tail) : ''}`, length: body.length };
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
  for (const position of positionedCredentials(content, (name) => vendorOfHost(name) !== undefined)) {
    const { start, end, value, host } = position;
    const taken = (other: Candidate) => overlaps(other, position);
    if (judged.some((other) => other.refused && taken(other)) || reported.some(taken)) continue;
    const kind =
      vendorOfName(position.name) ?? (host && !position.bare ? (vendorOfHost(host) ?? 'api_credential') : undefined);
    if (kind) reported.push({ kind, start, end, secret: value, accepted: true, ...(host ? { host } : {}) });
  }
  await checkpoint();
  const found = new Map<string, RedactedSecret>();
  for (const { kind, secret, body, host } of reported) {
    const { preview, length } = previewOf(kind, secret, body);
    found.set(`${kind} ${preview} ${length} ${host ?? ''}`, { kind, preview, length, ...(host ? { host } : {}) });
  }
  return [...found.values()];
}
