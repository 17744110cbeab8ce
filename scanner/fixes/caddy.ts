import { forEach, type FixTable } from './fix.ts';
import { cspNote, headerTable, TLS_CONFIGURATION_FINDINGS } from './shared.ts';

export const CADDY_FIXES: FixTable = {
  ...headerTable((header) => ({
    title: `${header.name} meesturen`,
    language: 'caddyfile',
    snippet: `header ${header.name} "${header.value}"`,
    notes: cspNote(header),
  })),
  ...forEach(TLS_CONFIGURATION_FINDINGS, {
    title: 'TLS volgens de NCSC-richtlijn (Goed)',
    language: 'caddyfile',
    snippet:
      'tls {\n    protocols tls1.2 tls1.3\n    ciphers TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256 TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256 TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n    curves x25519 secp384r1 secp256r1\n}',
  }),
  server_version_disclosure: { title: 'Server-header weglaten', language: 'caddyfile', snippet: 'header -Server' },
};
