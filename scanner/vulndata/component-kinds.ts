import { SEVERITIES, type Severity } from '../vocabulary.ts';
import type { MatchedAdvisory } from './advisories.ts';

/**
 * The kinds of component the scanner matches against vulnerability data, each with the worst
 * severity it reports (a library in the browser is at most HIGH: the page is not the server) and
 * the Dutch name findings use.
 */
export const COMPONENT_KINDS = {
  javascript_library: { worst: 'HIGH', label: 'JavaScript-bibliotheek' },
  nextjs: { worst: 'CRITICAL', label: 'Next.js' },
  wordpress_core: { worst: 'CRITICAL', label: 'WordPress' },
  wordpress_plugin: { worst: 'CRITICAL', label: 'WordPress-plugin' },
  wordpress_theme: { worst: 'CRITICAL', label: 'WordPress-thema' },
} as const satisfies Record<string, { worst: Severity; label: string }>;
export type ComponentKind = keyof typeof COMPONENT_KINDS;
export const COMPONENT_KIND_NAMES = Object.keys(COMPONENT_KINDS) as ComponentKind[];

/** The severities a kind can report, mildest first (the finding family's stages). */
export const severitiesOf = (kind: ComponentKind): Severity[] =>
  SEVERITIES.slice(SEVERITIES.indexOf(COMPONENT_KINDS[kind].worst)).reverse();

export type ComponentFindingType = `known_vulnerable_${ComponentKind}_${Lowercase<Severity>}`;

export const componentFindingType = (kind: ComponentKind, severity: Severity): ComponentFindingType =>
  `known_vulnerable_${kind}_${severity.toLowerCase() as Lowercase<Severity>}`;

/** Every component finding type, kind by kind, mildest first. */
export const COMPONENT_FINDING_TYPES: ComponentFindingType[] = COMPONENT_KIND_NAMES.flatMap((kind) =>
  severitiesOf(kind).map((severity) => componentFindingType(kind, severity)),
);

const milder = (a: Severity, b: Severity): Severity => (SEVERITIES.indexOf(a) >= SEVERITIES.indexOf(b) ? a : b);
const oneLower = (s: Severity): Severity => SEVERITIES[Math.min(SEVERITIES.indexOf(s) + 1, SEVERITIES.length - 1)]!;

/**
 * A component's severity (docs/scanner.md): the worst applicable advisory, a library's Node-only
 * advisories at most MEDIUM, capped by the kind; one level lower and never CRITICAL when the
 * version is inferred; at most LOW for a distribution's copy, which the distribution patches.
 */
export function componentSeverity(
  kind: ComponentKind,
  advisories: readonly MatchedAdvisory[],
  exact: boolean,
  distribution: boolean,
): Severity {
  const per = advisories.map((a) =>
    kind === 'javascript_library' && a.serverSide ? milder(a.severity, 'MEDIUM') : a.severity,
  );
  let severity = per.reduce<Severity>(
    (worst, s) => (SEVERITIES.indexOf(s) < SEVERITIES.indexOf(worst) ? s : worst),
    'LOW',
  );
  severity = milder(severity, COMPONENT_KINDS[kind].worst);
  if (!exact) severity = milder(oneLower(severity), 'HIGH');
  return distribution ? 'LOW' : severity;
}
