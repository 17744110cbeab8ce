// The mail records a domain publishes in DNS, parsed as their RFCs write them: SPF (RFC 7208),
// DMARC (RFC 7489 and RFC 9989), MTA-STS (RFC 8461), TLS-RPT (RFC 8460) and BIMI. Pure functions
// over record text; the probe asks DNS and the report judges.

/** RFC 7208 section 4.6.4: more than ten terms that cause DNS look-ups is a permerror. */
export const SPF_MAX_LOOKUPS = 10;
/** RFC 7208 section 4.6.4: more than two look-ups that return nothing is a permerror too. */
export const SPF_MAX_VOID_LOOKUPS = 2;
/** RFC 7208 section 4.6.4 bounds a whole evaluation; past this many records the tree is not followed. */
export const SPF_MAX_RECORDS = 30;
/** RFC 7505 and 5321: the MX set read, at most this many hosts (internet.nl tests ten too). */
export const MAX_MX = 10;
/** RFC 9989 section 4.10: the DMARC tree walk asks at most eight names. */
export const DMARC_TREE_WALK_MAX = 8;
/** RFC 8461 section 3.3: a policy file larger than this is not a policy (64 KiB). */
export const MTA_STS_MAX_BYTES = 64 * 1024;
/** RFC 8461 section 3.2: max_age up to a year (31557600 s). */
export const MTA_STS_MAX_AGE = 31_557_600;

export type SpfQualifier = '+' | '-' | '~' | '?';

export interface SpfTerm {
  /** The term as written, lowercased. */
  text: string;
  kind: 'all' | 'include' | 'a' | 'mx' | 'ptr' | 'ip4' | 'ip6' | 'exists' | 'redirect' | 'exp' | 'modifier';
  qualifier: SpfQualifier;
  /** The domain the term names (include:, a:, mx:, exists:, redirect=); null for the record's own. */
  target: string | null;
}

/** The terms of one `v=spf1` record; null when the record does not parse (an unknown mechanism, a bad term). */
export function parseSpf(record: string): SpfTerm[] | null {
  const words = record.trim().split(/\s+/);
  if (words[0]?.toLowerCase() !== 'v=spf1') return null;
  const terms: SpfTerm[] = [];
  for (const word of words.slice(1)) {
    const text = word.toLowerCase();
    const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/.exec(text);
    if (modifier) {
      const [, name, value] = modifier;
      const kind = name === 'redirect' ? 'redirect' : name === 'exp' ? 'exp' : 'modifier';
      if (kind !== 'modifier' && !value) return null;
      terms.push({ text, kind, qualifier: '+', target: kind === 'modifier' ? null : value! });
      continue;
    }
    const mechanism = /^([+\-~?]?)(all|include|a|mx|ptr|ip4|ip6|exists)(?::([^/]+))?(\/\/?\d+(?:\/\/\d+)?)?$/.exec(
      text,
    );
    if (!mechanism) return null;
    const qualifier = (mechanism[1] || '+') as SpfQualifier;
    const kind = mechanism[2] as SpfTerm['kind'];
    const target = mechanism[3];
    if ((kind === 'include' || kind === 'exists' || kind === 'ip4' || kind === 'ip6') && !target) return null;
    if (kind === 'all' && target) return null;
    terms.push({ text, kind, qualifier, target: target ?? null });
  }
  return terms;
}

/** The SPF terms that cost a DNS look-up (RFC 7208 section 4.6.4): exp is not one. */
export const countsAsLookup = (term: SpfTerm): boolean =>
  ['include', 'a', 'mx', 'ptr', 'exists', 'redirect'].includes(term.kind);

export interface DmarcRecord {
  /** Tag values by lowercase name. */
  tags: Record<string, string>;
  /** p=, sp=, np=: none, quarantine or reject; null when absent or another word. */
  policy: string | null;
  subdomainPolicy: string | null;
  /** RFC 9989 test mode (t=y): a receiver applies one level less. */
  testing: boolean;
  /** rua= and ruf= hosts: the part after the @ of each mailto: URI. */
  reportHosts: string[];
}

const DMARC_POLICIES = new Set(['none', 'quarantine', 'reject']);

/** A `v=DMARC1` record's tags (RFC 7489 section 6.3): v first, `tag=value` separated by semicolons. */
export function parseDmarc(record: string): DmarcRecord | null {
  const parts = record
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);
  const tags: Record<string, string> = {};
  for (const part of parts) {
    const at = part.indexOf('=');
    if (at < 1) return null;
    tags[part.slice(0, at).trim().toLowerCase()] = part.slice(at + 1).trim();
  }
  if (!/^v\s*=\s*dmarc1$/i.test(parts[0] ?? '')) return null;
  const policyOf = (value: string | undefined) =>
    value && DMARC_POLICIES.has(value.toLowerCase()) ? value.toLowerCase() : null;
  const reportHosts = ['rua', 'ruf'].flatMap((tag) =>
    (tags[tag] ?? '')
      .split(',')
      .map((uri) => uri.trim())
      .filter((uri) => /^mailto:/i.test(uri))
      .map((uri) => uri.slice(7).split('@')[1]?.split('!')[0]?.trim().toLowerCase().replace(/\.$/, '') ?? '')
      .filter(Boolean),
  );
  return {
    tags,
    policy: policyOf(tags.p),
    subdomainPolicy: policyOf(tags.sp),
    testing: tags.t?.toLowerCase() === 'y',
    reportHosts: [...new Set(reportHosts)],
  };
}

/** The one `v=STSv1` TXT record's id (RFC 8461 section 3.1: 1 to 32 letters and digits); null without a valid id. */
export function mtaStsIdOf(record: string): string | null {
  const fields = record.split(';').map((field) => field.trim());
  if (fields[0] !== 'v=STSv1') return null;
  const id = fields.find((field) => field.startsWith('id='))?.slice(3);
  return id && /^[A-Za-z0-9]{1,32}$/.test(id) ? id : null;
}

export interface MtaStsPolicy {
  mode: 'enforce' | 'testing' | 'none';
  mx: string[];
  maxAge: number;
}

/**
 * The policy file (RFC 8461 section 3.2), parsed strictly: `key: value` lines, version STSv1, one
 * mode and max_age, mx patterns (required unless the mode is none). Unknown keys are ignored, as the
 * RFC says. Returns the problems found instead of a policy when any.
 */
export function parseMtaStsPolicy(text: string): { policy: MtaStsPolicy } | { problems: string[] } {
  const problems: string[] = [];
  const seen: Record<string, string[]> = {};
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const match = /^([A-Za-z0-9_]+):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!match) {
      problems.push(`regel zonder "sleutel: waarde": ${line.slice(0, 80)}`);
      continue;
    }
    seen[match[1]!] = [...(seen[match[1]!] ?? []), match[2]!];
  }
  const one = (key: string) => {
    const values = seen[key] ?? [];
    if (values.length > 1) problems.push(`${key} staat er ${values.length} keer in`);
    return values[0];
  };
  if (one('version') !== 'STSv1') problems.push('version is niet STSv1');
  const mode = one('mode');
  if (mode !== 'enforce' && mode !== 'testing' && mode !== 'none')
    problems.push('mode is niet enforce, testing of none');
  const maxAgeText = one('max_age');
  const maxAge = maxAgeText && /^\d{1,10}$/.test(maxAgeText) ? Number(maxAgeText) : Number.NaN;
  if (!(maxAge >= 0 && maxAge <= MTA_STS_MAX_AGE))
    problems.push(`max_age ontbreekt of ligt niet tussen 0 en ${MTA_STS_MAX_AGE}`);
  const mx = (seen.mx ?? []).map((pattern) => pattern.toLowerCase().replace(/\.$/, ''));
  for (const pattern of mx)
    if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(pattern))
      problems.push(`ongeldig mx-patroon: ${pattern.slice(0, 80)}`);
  if (mode !== 'none' && mx.length === 0) problems.push('geen mx-regel');
  if (problems.length > 0) return { problems };
  return { policy: { mode: mode as MtaStsPolicy['mode'], mx, maxAge } };
}

/** RFC 8461 section 4.1: an MX host matches a pattern exactly, or `*.` matches one label left of the rest. */
export function mxCoveredBy(host: string, patterns: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return patterns.some((pattern) =>
    pattern.startsWith('*.')
      ? name.endsWith(pattern.slice(1)) && !name.slice(0, -pattern.length + 1).includes('.')
      : name === pattern,
  );
}

/** A `v=TLSRPTv1` record's rua targets (RFC 8460 section 3); null when the record is not one. */
export function tlsRptTargetsOf(record: string): { targets: string[]; bad: string[] } | null {
  const fields = record.split(';').map((field) => field.trim());
  if (fields[0] !== 'v=TLSRPTv1') return null;
  const rua = fields.find((field) => /^rua=/i.test(field))?.slice(4) ?? '';
  const targets = rua
    .split(',')
    .map((uri) => uri.trim())
    .filter(Boolean);
  return { targets, bad: targets.filter((uri) => !/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/i.test(uri)) };
}

/**
 * A domain that sends no mail, as internet.nl recognises one (checks/__init__.py): DMARC p=reject
 * (sp=reject too at an organisational domain) and SPF `v=spf1 -all`. DKIM is not tested there.
 */
export const SPF_NON_SENDING = /^v=spf1\s+(?:exp=\S+\s+)?-all;?(?:\s+exp=\S+)?$/i;
