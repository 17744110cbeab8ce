import { toFinding } from './report/findings.ts';
import type { AnalysisContext, Check } from './checks/context.ts';
import { checkCaa } from './checks/caa.ts';
import { checkClientSecrets, checkFirebase, checkNextMiddleware, checkSupabaseTables } from './checks/client-code.ts';
import { checkCookies } from './checks/cookies.ts';
import { checkCors } from './checks/cors.ts';
import { checkEmbedderPolicy, checkOpenerPolicy, checkResourcePolicy } from './checks/cross-origin-policies.ts';
import { checkContentSecurityPolicy } from './checks/csp.ts';
import { checkExposures } from './checks/exposures.ts';
import { checkFrameOptions } from './checks/framing.ts';
import { checkStrictTransportSecurity } from './checks/hsts.ts';
import { checkMixedContent } from './checks/mixed-content.ts';
import { checkHttpRedirection } from './checks/redirection.ts';
import { checkSecurityTxt } from './checks/security-txt.ts';
import {
  checkContentTypeOptions,
  checkPermissionsPolicy,
  checkReferrerPolicy,
  checkVersionDisclosure,
} from './checks/simple-headers.ts';
import { checkSubresourceIntegrity } from './checks/subresource-integrity.ts';
import {
  checkCipherOrder,
  checkCipherSuites,
  checkKeyExchangeGroups,
  checkKeyExchangeHash,
  checkTlsFeatures,
} from './checks/tls-guideline.ts';
import {
  checkCertificate,
  checkCertificateKeys,
  checkHttpsAvailable,
  checkProtocolVersions,
} from './checks/transport.ts';
import { checkDane } from './checks/dane.ts';
import { parseHtml } from './probes/html.ts';
import type { Observation, ScanEvidence, ScanFinding } from './types.ts';
import { SEVERITIES } from './vocabulary.ts';

/** Every check is a pure function of the evidence, named so a result can say which one failed. */
export const CHECKS = {
  https_available: checkHttpsAvailable,
  certificate: checkCertificate,
  certificate_keys: checkCertificateKeys,
  protocol_versions: checkProtocolVersions,
  cipher_suites: checkCipherSuites,
  key_exchange_groups: checkKeyExchangeGroups,
  key_exchange_hash: checkKeyExchangeHash,
  cipher_order: checkCipherOrder,
  tls_features: checkTlsFeatures,
  caa: checkCaa,
  dane: checkDane,
  http_redirection: checkHttpRedirection,
  strict_transport_security: checkStrictTransportSecurity,
  content_security_policy: checkContentSecurityPolicy,
  frame_options: checkFrameOptions,
  content_type_options: checkContentTypeOptions,
  referrer_policy: checkReferrerPolicy,
  permissions_policy: checkPermissionsPolicy,
  cross_origin_opener_policy: checkOpenerPolicy,
  cross_origin_embedder_policy: checkEmbedderPolicy,
  cross_origin_resource_policy: checkResourcePolicy,
  cookies: checkCookies,
  cors: checkCors,
  subresource_integrity: checkSubresourceIntegrity,
  mixed_content: checkMixedContent,
  security_txt: checkSecurityTxt,
  version_disclosure: checkVersionDisclosure,
  exposures: checkExposures,
  client_secrets: checkClientSecrets,
  supabase_tables: checkSupabaseTables,
  firebase: checkFirebase,
  nextjs_middleware: checkNextMiddleware,
} as const satisfies Record<string, Check>;

export type CheckName = keyof typeof CHECKS;

/** Names of the checks, as `failed_checks` lists them. */
export const CHECK_NAMES = Object.keys(CHECKS) as [CheckName, ...CheckName[]];

export function contextFor(evidence: ScanEvidence): AnalysisContext {
  return { evidence, html: evidence.page?.html != null ? parseHtml(evidence.page.html) : null };
}

export interface Observed {
  observations: Observation[];
  /** Checks that threw: their findings are missing, the rest of the scan stands. */
  failedChecks: CheckName[];
}

/** Told of a check or retrieval phase that failed, with its error (the caller logs it). */
export type CheckFailureReport = (check: string, error: unknown) => void;

/** Runs every check over the evidence; a check that throws is listed and reported, the others stand. */
export function runChecks(
  ctx: AnalysisContext,
  checks: Partial<Record<CheckName, Check>> = CHECKS,
  report?: CheckFailureReport,
): Observed {
  const observations: Observation[] = [];
  const failedChecks: CheckName[] = [];
  for (const [name, check] of Object.entries(checks) as Array<[CheckName, Check]>) {
    try {
      observations.push(...check(ctx));
    } catch (error) {
      failedChecks.push(name);
      report?.(name, error);
    }
  }
  return { observations, failedChecks };
}

/** Findings sorted by severity, one per (type, endpoint), and the checks that could not run. */
export function analyze(
  ctx: AnalysisContext,
  checks?: Partial<Record<CheckName, Check>>,
  report?: CheckFailureReport,
): { findings: ScanFinding[]; failedChecks: CheckName[] } {
  const { observations, failedChecks } = runChecks(ctx, checks, report);
  const unique = new Map<string, ScanFinding>();
  for (const observation of observations) {
    const key = `${observation.type} ${observation.endpoint}`;
    if (!unique.has(key)) unique.set(key, toFinding(observation));
  }
  const findings = [...unique.values()].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
  return { findings, failedChecks };
}
