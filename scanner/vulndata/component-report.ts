import { SEVERITIES, type Severity } from '../vocabulary.ts';
import type { MatchedAdvisory } from './advisories.ts';
import { componentSeverity, COMPONENT_KINDS, type ComponentKind } from './component-kinds.ts';
import type { SourceInfo } from './dataset.ts';
import { SIGHTING_METHODS, type SightingMethod } from './sightings.ts';

/** One component at one version on a site, with what the data says of it. */
export interface ComponentReport {
  kind: ComponentKind;
  /** The name owners know it by (jquery, next, contact-form-7). */
  name: string;
  version: string;
  method: SightingMethod;
  url: string;
  /** Served from a distribution's folder (/javascript/, /wp-includes/js/), which patches its copies. */
  distribution: boolean;
  advisories: MatchedAdvisory[];
  fix: { version: string; onLine: boolean } | null;
  source: SourceInfo;
  /** What the site showed of its context (Next.js), in Dutch; empty when not applicable. */
  context?: string;
  /** Other places that named a version of the same component: how, and which version. */
  alsoSeen?: Array<{ method: SightingMethod; version: string }>;
}

/** Where distributions put the copies they maintain and patch. */
export const DISTRIBUTION_PATHS = /\/javascript\/|\/wp-includes\/js\//;

const SOURCE_LABELS: Record<SourceInfo['source'], string> = {
  retire: 'retire.js (met gegevens uit de GitHub Advisory Database)',
  wordfence: 'Wordfence Intelligence',
};
const SHOWN_ADVISORIES = 12;

export function reportSeverity(report: ComponentReport): Severity {
  return componentSeverity(report.kind, report.advisories, SIGHTING_METHODS[report.method].exact, report.distribution);
}

const worstFirst = (a: MatchedAdvisory, b: MatchedAdvisory) =>
  SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity);

/** The line a fix is built from (scanner/fixes/components.ts reads it back). */
export const FIX_LINE = /^Oplossing: (\S+) (\S+) → (\S+)$/m;

/**
 * The finding's evidence, in Dutch: the component and version; how, where and how surely the
 * version was read; the advisories worst first with their fixes; the data's source and date; and
 * the smallest safe version. It says which versions a source reports, not that the site is broken into.
 */
export function describeReport(report: ComponentReport): string {
  const how = SIGHTING_METHODS[report.method];
  const label = COMPONENT_KINDS[report.kind].label;
  const advisories = [...report.advisories].sort(worstFirst);
  const lines = [
    `${label} ${report.name} ${report.version} (${how.exact ? 'exacte versie' : 'afgeleide versie'}: ${how.label}, ${report.url})`,
    `Versie ${report.version} gemeld door ${SOURCE_LABELS[report.source.source]}, gegevens van ${report.source.updated_at.slice(0, 10)}:`,
    ...advisories.slice(0, SHOWN_ADVISORIES).map((a) => {
      const fixed = a.fixedIn ? `opgelost in ${a.fixedIn}` : 'geen oplossing bekend';
      const only = a.conditions.length > 0 ? `; geldt alleen met ${a.conditions.join(' en ')}` : '';
      const node = a.serverSide ? '; alleen bij gebruik in Node.js op een server' : '';
      return `- ${a.name ? `${a.name} ` : ''}${a.ids.join(' / ')} (${a.severity}), ${fixed}${only}${node}`;
    }),
    ...(advisories.length > SHOWN_ADVISORIES
      ? [
          `- en verder: ${advisories
            .slice(SHOWN_ADVISORIES)
            .map((a) => a.ids[0])
            .join(', ')}`,
        ]
      : []),
  ];
  if (report.context) lines.push(`Gezien van buitenaf: ${report.context}`);
  for (const other of report.alsoSeen ?? [])
    lines.push(`Ook gezien: ${SIGHTING_METHODS[other.method].label} (${other.version})`);
  if (!how.exact)
    lines.push('De versie is afgeleid, niet uit het onderdeel zelf gelezen: de ernst is daarom een niveau lager.');
  if (report.distribution)
    lines.push(
      'Dit is de kopie van een distributie of van WordPress zelf, die oplossingen vaak terugzet onder het oude versienummer: ernst ten hoogste LOW.',
    );
  if (report.fix) {
    lines.push(`Oplossing: ${report.name} ${report.version} → ${report.fix.version}`);
    if (!report.fix.onLine)
      lines.push(`Op deze versielijn is geen veilige versie bekend; ${report.fix.version} is de eerste veilige.`);
  } else lines.push('Er is geen veilige versie bekend: vervang het onderdeel of schakel het uit.');
  return lines.join('\n');
}
