import {
  checkCipherOrder,
  checkCipherSuites,
  checkKeyExchangeGroups,
  checkKeyExchangeHash,
  checkTlsFeatures,
} from '../checks/tls-guideline.ts';
import { CERTIFICATE_CHAIN_FINDINGS, INSUFFICIENT_CIPHER_FINDINGS } from '../catalog/ssl-tls.ts';
import { checkCertificate, checkCertificateKeys, checkProtocolVersions } from '../checks/transport.ts';
import { defineTest, originOfUrl, REASONS } from './test.ts';

/**
 * The certificate, protocol versions, cipher suites, key exchange and protocol features on the
 * site's HTTPS host and port, judged by the NCSC-NL guideline. Without a handshake there is
 * nothing to judge: a port that refuses leaves the earlier findings as they are.
 */
export const tlsTest = defineTest({
  name: 'tls',
  category: 'SSL_TLS',
  subject: 'origin',
  produces: [
    ...CERTIFICATE_CHAIN_FINDINGS,
    'tls_1_0_supported',
    'tls_1_1_supported',
    'tls_modern_protocols_missing',
    'tls_1_3_not_supported',
    ...INSUFFICIENT_CIPHER_FINDINGS,
    'tls_cipher_phase_out',
    'tls_no_forward_secrecy',
    'tls_no_aead',
    'tls_dh_group_insufficient',
    'tls_dh_group_phase_out',
    'tls_curve_insufficient',
    'tls_curve_phase_out',
    'tls_key_exchange_hash_insufficient',
    'tls_key_exchange_hash_phase_out',
    'tls_cipher_order_missing',
    'tls_cipher_order_weak_first',
    'tls_secure_renegotiation_missing',
    'tls_extended_master_secret_missing',
    'tls_compression_enabled',
    'tls_client_renegotiation_allowed',
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
  coverage: (_ctx, { site }) => {
    const subject = originOfUrl(site.httpsUrl);
    if (site.tlsWorks) return [{ subject, status: 'completed', reason: null }];
    if (site.tlsCut) return [{ subject, status: 'failed', reason: REASONS.deadline }];
    // No handshake: the https test reports that; there is no certificate or suite to judge.
    return [
      { subject, status: 'not_applicable', reason: `geen TLS-verbinding op poort ${site.httpsUrl.port || '443'}` },
    ];
  },
});
