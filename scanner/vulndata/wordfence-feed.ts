import { z } from 'zod';

/**
 * Wordfence Intelligence's vulnerability feed, version 3 (production): an object of records by id,
 * each naming the WordPress core, plugin or theme it affects with version ranges, the patched
 * versions, and CVSS. Validated on the way in and compacted to what matching needs.
 */
const Version = z.string().min(1).max(40);
const Software = z
  .object({
    type: z.enum(['core', 'plugin', 'theme']),
    slug: z.string().regex(/^[a-z0-9._-]{1,100}$/i),
    name: z.string().max(300).optional(),
    affected_versions: z.record(
      z.string(),
      z.object({
        from_version: Version,
        from_inclusive: z.boolean(),
        to_version: Version,
        to_inclusive: z.boolean(),
      }),
    ),
    patched_versions: z.array(Version).default([]),
  })
  .loose();
const Record = z
  .object({
    id: z.string().min(1).max(100),
    title: z.string().max(1000),
    software: z.array(Software).min(1),
    informational: z.boolean().optional(),
    cvss: z
      .object({ score: z.number().min(0).max(10).nullable().optional(), rating: z.string().nullable().optional() })
      .loose()
      .nullable()
      .optional(),
    cve: z.string().nullable().optional(),
    published: z.string().nullable().optional(),
  })
  .loose();
export type WordfenceRecord = z.infer<typeof Record>;
export type WordfenceFeed = { [id: string]: WordfenceRecord };

/** At most this share of a feed's records may be malformed; more means the file is not the feed. */
const MAX_MALFORMED = 0.05;

/**
 * The feed's records that validate. One odd record among tens of thousands is left out (and
 * counted) rather than costing the whole update; a file that is not an object of records, or whose
 * records mostly do not validate, is refused with the first problems.
 */
export function parseWordfenceFeed(raw: unknown): { feed: WordfenceFeed; malformed: number } | { problems: string[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { problems: ['(root): not an object of records'] };
  const feed: WordfenceFeed = {};
  const problems: string[] = [];
  let malformed = 0;
  for (const [id, value] of Object.entries(raw)) {
    const parsed = Record.safeParse(value);
    if (parsed.success) feed[id] = parsed.data;
    else {
      malformed += 1;
      if (problems.length < 3)
        problems.push(`${id}.${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`);
    }
  }
  const total = Object.keys(raw).length;
  if (total === 0) return { problems: ['(root): an empty Wordfence feed'] };
  return malformed > total * MAX_MALFORMED ? { problems } : { feed, malformed };
}

export type WordPressPart = z.infer<typeof Software>['type'];

/** One advisory of one WordPress part, as stored. Ranges are [from, from inclusive, to, to inclusive]; '*' is open. */
export interface CompactWordfenceRecord {
  id: string;
  title: string;
  cve: string | null;
  score: number | null;
  ranges: Array<[string, boolean, string, boolean]>;
  patched: string[];
}

/** Records by "type:slug" (core:wordpress, plugin:contact-form-7, theme:astra). */
export type CompactWordfence = { [part: string]: CompactWordfenceRecord[] };

const MAX_TITLE = 300;

/** Informational records (no vulnerability) are left out. */
export function compactWordfence(feed: WordfenceFeed): CompactWordfence {
  const out: CompactWordfence = {};
  for (const record of Object.values(feed)) {
    if (record.informational) continue;
    for (const software of record.software) {
      const key = `${software.type}:${software.slug.toLowerCase()}`;
      const list = out[key] ?? [];
      out[key] = list;
      list.push({
        id: record.id,
        title: record.title.slice(0, MAX_TITLE),
        cve: record.cve ?? null,
        score: record.cvss?.score ?? null,
        ranges: Object.values(software.affected_versions).map((r) => [
          r.from_version,
          r.from_inclusive,
          r.to_version,
          r.to_inclusive,
        ]),
        patched: software.patched_versions,
      });
    }
  }
  return out;
}

/** Records counted as the feed counts them: one per advisory, however many parts it names. */
export const wordfenceRecords = (data: CompactWordfence): number =>
  new Set(Object.values(data).flatMap((records) => records.map((r) => r.id))).size;
