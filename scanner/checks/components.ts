import type { Observation } from '../types.ts';
import { SEVERITIES } from '../vocabulary.ts';
import { retireAdvisories, wordfenceAdvisories } from '../vulndata/advisories.ts';
import { componentFindingType, type ComponentKind } from '../vulndata/component-kinds.ts';
import {
  describeReport,
  DISTRIBUTION_PATHS,
  reportSeverity,
  type ComponentReport,
} from '../vulndata/component-report.ts';
import type { WordPressSighting } from '../probes/wordpress-components.ts';
import type { NextjsContext } from '../vulndata/nextjs-applicability.ts';
import { SIGHTING_METHODS, type Sighting } from '../vulndata/sightings.ts';
import { releaseLine } from '../vulndata/versions.ts';
import { observe, type Check } from './context.ts';

/** One finding per endpoint: the worst report there (an exact version before an inferred one at equal severity). */
function findingsOf(reports: Array<{ endpoint: string; report: ComponentReport }>): Observation[] {
  const best = new Map<string, ComponentReport>();
  const rank = (r: ComponentReport) =>
    SEVERITIES.indexOf(reportSeverity(r)) * 2 + (SIGHTING_METHODS[r.method].exact ? 0 : 1);
  for (const { endpoint, report } of reports) {
    const held = best.get(endpoint);
    if (!held || rank(report) < rank(held)) best.set(endpoint, report);
  }
  return [...best.entries()].map(([endpoint, report]) =>
    observe(componentFindingType(report.kind, reportSeverity(report)), endpoint, describeReport(report)),
  );
}

/** Per component and script, the exact sighting when there is one. */
function bestSightings(sightings: readonly Sighting[]): Sighting[] {
  const chosen = new Map<string, Sighting>();
  for (const s of sightings) {
    const key = `${s.component}\n${s.version}\n${s.url}`;
    const held = chosen.get(key);
    if (!held || (SIGHTING_METHODS[s.method].exact && !SIGHTING_METHODS[held.method].exact)) chosen.set(key, s);
  }
  return [...chosen.values()];
}

const origin = (url: string) => new URL(url).origin;

const CONTEXT_WORDS = {
  router: { app: 'App Router', pages: 'Pages Router' },
  server: { live: 'een draaiende Next.js-server', static: 'een statische export zonder Next.js-server' },
} as const;

function contextText(context: NextjsContext): string {
  return [
    context.router ? CONTEXT_WORDS.router[context.router] : 'router onbekend',
    context.server ? CONTEXT_WORDS.server[context.server] : 'onbekend of er een Next.js-server draait',
    context.vercel ? 'op Vercel' : 'niet op Vercel (of onbekend)',
  ].join(', ');
}

/** JavaScript libraries the page loads, by retire.js's data: one finding per library and release line. */
export const checkJavascriptLibraries: Check = (ctx) => {
  const evidence = ctx.evidence.libraries;
  const retire = evidence?.data.data.retire;
  if (!evidence || !retire || !ctx.evidence.page) return [];
  const site = origin(ctx.evidence.page.url);
  const reports: Array<{ endpoint: string; report: ComponentReport }> = [];
  for (const s of bestSightings(evidence.sightings)) {
    if (s.component === 'nextjs') continue;
    const { advisories, fix } = retireAdvisories(retire.data, s.component, s.version);
    if (advisories.length === 0) continue;
    // The npm name owners install it by (moment, not moment.js); retire.js's own name otherwise.
    const name = retire.data[s.component]?.npm ?? s.component;
    const report: ComponentReport = {
      kind: 'javascript_library',
      name,
      version: s.version,
      method: s.method,
      url: s.url,
      distribution: DISTRIBUTION_PATHS.test(new URL(s.url).pathname),
      advisories,
      fix,
      source: retire.info,
    };
    reports.push({ endpoint: `${site}#${name.toLowerCase()}@${releaseLine(s.version)}`, report });
  }
  return findingsOf(reports);
};

const UNKNOWN_CONTEXT: NextjsContext = { router: null, server: null, vercel: false };

/** Next.js at the version its own runtime names, with the advisories its context leaves applicable. */
export const checkNextjsVersion: Check = (ctx) => {
  const evidence = ctx.evidence.libraries;
  const retire = evidence?.data.data.retire;
  if (!evidence || !retire || !ctx.evidence.page) return [];
  const context = evidence.nextjs ?? UNKNOWN_CONTEXT;
  const reports: Array<{ endpoint: string; report: ComponentReport }> = [];
  for (const s of bestSightings(evidence.sightings)) {
    if (s.component !== 'nextjs') continue;
    const { advisories, fix } = retireAdvisories(retire.data, 'nextjs', s.version, context);
    if (advisories.length === 0) continue;
    reports.push({
      endpoint: `${origin(ctx.evidence.page.url)}#next`,
      report: {
        kind: 'nextjs',
        name: 'next',
        version: s.version,
        method: s.method,
        url: s.url,
        distribution: false,
        advisories,
        fix,
        source: retire.info,
        context: contextText(context),
      },
    });
  }
  return findingsOf(reports);
};

const PART_KIND: Record<'core' | 'plugin' | 'theme', ComponentKind> = {
  core: 'wordpress_core',
  plugin: 'wordpress_plugin',
  theme: 'wordpress_theme',
};

/** WordPress core, plugins and themes by Wordfence's data, matched per release branch. */
export const checkWordPressComponents: Check = (ctx) => {
  const evidence = ctx.evidence.wordpress;
  const wordfence = evidence?.data.data.wordfence;
  if (!evidence || !wordfence || !ctx.evidence.page) return [];
  const site = origin(ctx.evidence.page.url);
  const reports: Array<{ endpoint: string; report: ComponentReport }> = [];
  // One report per part: the version an exact source gives, the other sources named beside it.
  const byPart = new Map<string, WordPressSighting[]>();
  for (const s of evidence.sightings)
    byPart.set(`${s.part}:${s.slug}`, [...(byPart.get(`${s.part}:${s.slug}`) ?? []), s]);
  for (const seen of byPart.values()) {
    const [s, ...others] = [...seen].sort(
      (a, b) => Number(SIGHTING_METHODS[b.method].exact) - Number(SIGHTING_METHODS[a.method].exact),
    ) as [WordPressSighting, ...WordPressSighting[]];
    const { advisories, fix } = wordfenceAdvisories(wordfence.data, s.part, s.slug, s.version);
    if (advisories.length === 0) continue;
    const endpoint =
      s.part === 'core'
        ? `${site}#wordpress`
        : `${site}/wp-content/${s.part === 'plugin' ? 'plugins' : 'themes'}/${s.slug}/`;
    reports.push({
      endpoint,
      report: {
        kind: PART_KIND[s.part],
        name: s.slug,
        version: s.version,
        method: s.method,
        url: s.url,
        distribution: false,
        advisories,
        fix,
        source: wordfence.info,
        alsoSeen: others.map((o) => ({ method: o.method, version: o.version })),
      },
    });
  }
  return findingsOf(reports);
};
