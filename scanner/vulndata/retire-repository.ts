import { z } from 'zod';
import { anchored, type AnchoredPattern } from './anchored-pattern.ts';
import { VERSION_PATTERN } from './versions.ts';

/**
 * retire.js's repository (jsrepository-v5.json, Apache-2.0): per library its vulnerable ranges and
 * how to find its version. Validated on the way in; what the scanner does not use (AST queries,
 * browser functions, licences) is dropped when it is compacted.
 */
const Range = z.string().min(1).max(40);
const Advisory = z.object({
  atOrAbove: Range.optional(),
  below: Range,
  excludes: z.array(Range).optional(),
  severity: z.enum(['none', 'low', 'medium', 'high', 'critical']),
  identifiers: z
    .object({
      summary: z.string().optional(),
      CVE: z.array(z.string()).optional(),
      githubID: z.string().optional(),
    })
    .loose(),
  info: z.array(z.string()).optional(),
});
const Extractors = z
  .object({
    uri: z.array(z.string()).optional(),
    filename: z.array(z.string()).optional(),
    filecontent: z.array(z.string()).optional(),
    filecontentreplace: z.array(z.string()).optional(),
    hashes: z.record(z.string().regex(/^[0-9a-f]{40}$/), z.string()).optional(),
  })
  .loose();
const Component = z
  .object({
    npmname: z.string().optional(),
    vulnerabilities: z.array(Advisory),
    extractors: Extractors,
  })
  .loose();
export const RetireRepository = z
  .record(z.string().min(1).max(100), Component)
  .refine((repo) => Object.keys(repo).length >= 10 && 'jquery' in repo, {
    message: 'not a retire.js repository: fewer than 10 libraries, or no jquery',
  });
export type RetireRepository = z.infer<typeof RetireRepository>;
export type RetireAdvisory = z.infer<typeof Advisory>;

/** The compacted form stored and shipped: what matching needs, nothing more. */
export interface CompactRetire {
  [component: string]: {
    npm?: string;
    vulnerabilities: Array<{
      atOrAbove?: string;
      below: string;
      excludes?: string[];
      severity: RetireAdvisory['severity'];
      ids: string[];
      summary?: string;
      url?: string;
    }>;
    extractors: Pick<z.infer<typeof Extractors>, 'uri' | 'filename' | 'filecontent' | 'filecontentreplace' | 'hashes'>;
  };
}

const MAX_SUMMARY = 300;

export function compactRetire(repo: RetireRepository): CompactRetire {
  const out: CompactRetire = {};
  for (const [name, component] of Object.entries(repo)) {
    const { uri, filename, filecontent, filecontentreplace, hashes } = component.extractors;
    out[name] = {
      ...(component.npmname ? { npm: component.npmname } : {}),
      vulnerabilities: component.vulnerabilities.map((v) => ({
        ...(v.atOrAbove ? { atOrAbove: v.atOrAbove } : {}),
        below: v.below,
        ...(v.excludes?.length ? { excludes: v.excludes } : {}),
        severity: v.severity,
        ids: [...(v.identifiers.CVE ?? []), ...(v.identifiers.githubID ? [v.identifiers.githubID] : [])],
        ...(v.identifiers.summary ? { summary: v.identifiers.summary.slice(0, MAX_SUMMARY) } : {}),
        ...(v.info?.[0] ? { url: v.info[0] } : {}),
      })),
      extractors: { uri, filename, filecontent, filecontentreplace, hashes },
    };
  }
  return out;
}

/** retire.js's placeholder: our strict version syntax stands in for its looser character class. */
const withVersion = (source: string) => source.replaceAll('§§version§§', VERSION_PATTERN);

export interface CompiledComponent {
  name: string;
  npm: string | null;
  uri: RegExp[];
  filename: RegExp[];
  content: AnchoredPattern[];
  /** filecontentreplace: the version is the replacement text built from the match's groups. */
  replace: Array<{ pattern: AnchoredPattern; replacement: string }>;
  hashes: Map<string, string>;
}

export interface CompiledRetire {
  components: CompiledComponent[];
  /** Content patterns without a literal to anchor them: not run (counted for the docs and status). */
  unanchored: number;
}

function compileAll(sources: readonly string[] | undefined, flags = ''): RegExp[] {
  const out: RegExp[] = [];
  for (const source of sources ?? []) {
    try {
      out.push(new RegExp(withVersion(source), flags));
    } catch {
      // A pattern this engine cannot compile is left out, as retire.js itself does.
    }
  }
  return out;
}

export function compileRetire(data: CompactRetire): CompiledRetire {
  let unanchored = 0;
  const components: CompiledComponent[] = [];
  for (const [name, component] of Object.entries(data)) {
    if (component.vulnerabilities.length === 0) continue;
    const { uri, filename, filecontent, filecontentreplace, hashes } = component.extractors;
    const content: AnchoredPattern[] = [];
    for (const source of filecontent ?? []) {
      const pattern = anchored(withVersion(source));
      if (pattern) content.push(pattern);
      else unanchored++;
    }
    const replace: CompiledComponent['replace'] = [];
    for (const spec of filecontentreplace ?? []) {
      // /regex/replacement/: the regex may contain slashes, the replacement ($1…) does not.
      const parts = /^\/(.*)\/([^/]*)\/$/s.exec(spec);
      const pattern = parts ? anchored(withVersion(parts[1]!)) : null;
      if (pattern && parts) replace.push({ pattern, replacement: parts[2]! });
      else unanchored++;
    }
    components.push({
      name,
      npm: component.npm ?? null,
      uri: compileAll(uri),
      filename: compileAll(filename),
      content,
      replace,
      hashes: new Map(Object.entries(hashes ?? {})),
    });
  }
  return { components, unanchored };
}
