import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { compactRetire, compileRetire, RetireRepository, type CompactRetire } from './retire-repository.ts';
import { VULNDATA_SOURCES, type VulndataSource } from '../vocabulary.ts';
import { ComponentIndex } from './sightings.ts';
import { compactWordfence, parseWordfenceFeed, wordfenceRecords, type CompactWordfence } from './wordfence-feed.ts';

export { VULNDATA_SOURCES, type VulndataSource };

/** Older data still gives findings, but the test it serves is not counted as completed: stale data is never an all-clear. */
export const VULNDATA_UNUSABLE_AFTER_DAYS = 90;

/** Where one source's data came from and how current it is. */
export interface SourceInfo {
  source: VulndataSource;
  /** When the data was last known current at its source (fetched, or the date of the imported file). */
  updated_at: string;
  records: number;
  /** False for a subset (the shipped Wordfence excerpt): the WordPress test then does not complete. */
  complete: boolean;
  licence: string;
  origin: string;
}

export interface RetireSet {
  info: SourceInfo;
  data: CompactRetire;
  index: ComponentIndex;
}
export interface WordfenceSet {
  info: SourceInfo;
  data: CompactWordfence;
}
export interface VulnerabilityData {
  retire: RetireSet | null;
  wordfence: WordfenceSet | null;
}

/** The data a scan uses, with each source's age in days at the scan's time (the caller's clock). */
export interface VulnerabilityDataInUse {
  data: VulnerabilityData;
  ageDays: Record<VulndataSource, number | null>;
}

/** A file that is not the data it claims to be; the message says what is wrong (for the operator, English). */
export class VulndataError extends Error {}

export interface Compacted {
  body: CompactRetire | CompactWordfence;
  records: number;
}

/** Validates a source's raw file (parsed JSON) and compacts it; throws VulndataError naming the first problems. */
export function compactSource(source: VulndataSource, raw: unknown): Compacted {
  const refuse = (problems: string[]) => {
    throw new VulndataError(`not a valid ${source} file: ${problems.join('; ')}`);
  };
  if (source === 'wordfence') {
    const parsed = parseWordfenceFeed(raw);
    if ('problems' in parsed) return refuse(parsed.problems);
    const body = compactWordfence(parsed.feed);
    return { body, records: wordfenceRecords(body) };
  }
  const parsed = RetireRepository.safeParse(raw);
  if (!parsed.success)
    return refuse(
      parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.slice(0, 4).join('.') || '(root)'}: ${issue.message}`),
    );
  const body = compactRetire(parsed.data);
  return { body, records: Object.values(body).reduce((n, c) => n + c.vulnerabilities.length, 0) };
}

/** Builds the in-memory form of one source from its compacted body. */
export function loadSet(info: SourceInfo, body: unknown): RetireSet | WordfenceSet {
  if (info.source === 'retire') {
    const data = body as CompactRetire;
    return { info, data, index: new ComponentIndex(compileRetire(data)) };
  }
  return { info, data: body as CompactWordfence };
}

/** The folder with the shipped snapshots (vulndata/ at the repository's root), from source or from dist/. */
function dataFolder(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'vulndata', 'retire');
    if (existsSync(candidate)) return dirname(candidate);
    if (dirname(dir) === dir) throw new Error('vulndata/ not found');
  }
}

const SHIPPED_FILES: Record<VulndataSource, string> = {
  retire: 'jsrepository-v5.json.gz',
  wordfence: 'vulnerabilities.json',
};
const Meta = z.object({
  updated_at: z.string(),
  licence: z.string(),
  origin: z.string(),
  complete: z.boolean(),
});

/** A source as shipped with the code: its file, compacted, and what its meta.json says of it. */
export function shippedSource(source: VulndataSource): { info: SourceInfo; body: Compacted['body'] } {
  const folder = join(dataFolder(), source);
  const meta = Meta.parse(JSON.parse(readFileSync(join(folder, 'meta.json'), 'utf8')));
  const file = readFileSync(join(folder, SHIPPED_FILES[source]));
  const text = (SHIPPED_FILES[source].endsWith('.gz') ? gunzipSync(file) : file).toString('utf8');
  const { body, records } = compactSource(source, JSON.parse(text));
  return { info: { source, records, ...meta }, body };
}

let shipped: VulnerabilityData | null = null;

/** The shipped snapshots, loaded once (the command-line scanner's data, and the service's until it stores its own). */
export function shippedData(): VulnerabilityData {
  if (!shipped) {
    const retire = shippedSource('retire');
    const wordfence = shippedSource('wordfence');
    shipped = {
      retire: loadSet(retire.info, retire.body) as RetireSet,
      wordfence: loadSet(wordfence.info, wordfence.body) as WordfenceSet,
    };
  }
  return shipped;
}

const DAY_MS = 86_400_000;

/** Each source's age in days at `now`. */
export function inUseAt(data: VulnerabilityData, now: number): VulnerabilityDataInUse {
  const age = (set: RetireSet | WordfenceSet | null) =>
    set ? Math.max(0, Math.floor((now - Date.parse(set.info.updated_at)) / DAY_MS)) : null;
  return { data, ageDays: { retire: age(data.retire), wordfence: age(data.wordfence) } };
}
