import {
  checkCipherOrder,
  checkCipherSuites,
  checkKeyExchangeGroups,
  checkKeyExchangeHash,
  checkTlsFeatures,
} from '../checks/tls-guideline.ts';
import { CERTIFICATE_CHAIN_FINDINGS, TLS_CONFIGURATION_FINDINGS } from '../catalog/ssl-tls.ts';
import { checkCertificate, checkCertificateKeys, checkProtocolVersions } from '../checks/transport.ts';
import type { FindingType } from '../catalog/index.ts';
import type { ScanEvidence, TlsEvidence } from '../types.ts';
import type { SiteContact } from '../probes/retriever.ts';
import { defineTest, originOfUrl, REASONS, type SubjectCoverage } from './test.ts';

/**
 * What the TLS test covered on its origin. A suite this runtime cannot offer was not tested: the
 * entry is skipped, so the origin's TLS findings stay as they are instead of being resolved.
 */
export function tlsCoverage(
  evidence: ScanEvidence,
  site: Pick<SiteContact, 'tlsWorks' | 'tlsCut' | 'httpsUrl'>,
  subject: string,
): SubjectCoverage[] {
  if (site.tlsWorks && evidence.tls?.ciphers?.tls13InsufficientSuite === null)
    return [
      {
        subject,
        status: 'skipped',
        reason: 'deze Node.js-versie kan TLS_AES_128_CCM_8_SHA256 niet aanbieden: CCM_8 niet getest',
      },
    ];
  if (site.tlsWorks) return [{ subject, status: 'completed', reason: null }];
  if (site.tlsCut) return [{ subject, status: 'failed', reason: REASONS.deadline }];
  // No handshake: the https test reports that; there is no certificate or suite to judge.
  return [{ subject, status: 'not_applicable', reason: `geen TLS-verbinding op poort ${site.httpsUrl.port || '443'}` }];
}

/**
 * The certificate, protocol versions, cipher suites, key exchange and protocol features on the
 * site's HTTPS host and port, judged by the NCSC-NL guideline. Without a handshake there is
 * nothing to judge: a port that refuses leaves the earlier findings as they are.
 */
export const tlsTest = defineTest({
  name: 'tls',
  category: 'SSL_TLS',
  subject: 'origin',
  reach: 'passive',
  produces: [
    ...CERTIFICATE_CHAIN_FINDINGS,
    ...TLS_CONFIGURATION_FINDINGS,
    // Protocol features that come with the TLS library: no setting of the server fixes them.
    'tls_secure_renegotiation_missing',
    'tls_extended_master_secret_missing',
  ],
  checks: {
    certificate: checkCertificate,
    certificate_keys: checkCertificateKeys,
    protocol_versions: checkProtocolVersions,
    cipher_suites: checkCipherSuites,
    key_exchange_groups: checkKeyExchangeGroups,
    key_exchange_hash: checkKeyExchangeHash,
    cipher_order: checkCipherOrder,
    tls_features: checkTlsFeatures,
  },
  subjectOf: (site) => originOfUrl(site.httpsUrl),
  coverage: (ctx, { site }, subject) => tlsCoverage(ctx.evidence, site, subject),
});

/**
 * What the TLS test's checks find in one more handshake beside a scan's evidence: another address
 * of the site, or a mail server's STARTTLS (the checks read only the TLS evidence and the time).
 */
export function tlsFindingTypes(evidence: ScanEvidence, tls: TlsEvidence): FindingType[] {
  return Object.values(tlsTest.checks).flatMap((check) =>
    check({ evidence: { ...evidence, tls }, html: null }).map((o) => o.type),
  );
}
