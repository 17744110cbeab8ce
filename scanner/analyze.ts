import { toFinding } from './catalog/index.ts';
import type { AnalysisContext, Check } from './checks/context.ts';
import { checkCookies } from './checks/cookies.ts';
import { checkCors } from './checks/cors.ts';
import { checkEmbedderPolicy, checkOpenerPolicy, checkResourcePolicy } from './checks/cross-origin-policies.ts';
import { checkContentSecurityPolicy } from './checks/csp.ts';
import { checkExposures } from './checks/exposures.ts';
import { checkFrameOptions } from './checks/framing.ts';
import { checkStrictTransportSecurity } from './checks/hsts.ts';
import { checkHttpRedirection } from './checks/redirection.ts';
import { checkContentTypeOptions, checkPermissionsPolicy, checkReferrerPolicy, checkVersionDisclosure } from './checks/simple-headers.ts';
import { checkSubresourceIntegrity } from './checks/subresource-integrity.ts';
import { checkCertificate, checkHttpsAvailable, checkProtocolVersions } from './checks/transport.ts';
import { parseHtml } from './html.ts';
import type { Observation, ScanEvidence, ScanFinding } from './types.ts';
import { SEVERITIES } from './vocabulary.ts';

/** Every check is a pure function of the evidence. */
export const CHECKS: Check[] = [
  checkHttpsAvailable,
  checkCertificate,
  checkProtocolVersions,
  checkHttpRedirection,
  checkStrictTransportSecurity,
  checkContentSecurityPolicy,
  checkFrameOptions,
  checkContentTypeOptions,
  checkReferrerPolicy,
  checkPermissionsPolicy,
  checkOpenerPolicy,
  checkEmbedderPolicy,
  checkResourcePolicy,
  checkCookies,
  checkCors,
  checkSubresourceIntegrity,
  checkVersionDisclosure,
  checkExposures,
];

export function contextFor(evidence: ScanEvidence): AnalysisContext {
  return { evidence, html: evidence.page?.html != null ? parseHtml(evidence.page.html) : null };
}

export function observe(ctx: AnalysisContext, checks: Check[] = CHECKS): Observation[] {
  return checks.flatMap((check) => check(ctx));
}

/** Findings sorted by severity; one per (type, endpoint). */
export function analyze(ctx: AnalysisContext): ScanFinding[] {
  const unique = new Map<string, ScanFinding>();
  for (const observation of observe(ctx)) {
    const key = `${observation.type} ${observation.endpoint}`;
    if (!unique.has(key)) unique.set(key, toFinding(observation));
  }
  return [...unique.values()].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
}
