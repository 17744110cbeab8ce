import { forEach, type FixTable } from './fix.ts';
import { HEADER_NOTE, HEADER_VALUES, TLS_FINDINGS } from './shared.ts';

export const CADDY_FIXES: FixTable = {
  ...Object.fromEntries(
    Object.entries(HEADER_VALUES).map(([type, header]) => [
      type,
      { title: `${header.name} meesturen`, language: 'caddyfile', snippet: `header ${header.name} "${header.value}"`, notes: header.name === 'Content-Security-Policy' ? HEADER_NOTE : undefined },
    ]),
  ),
  ...forEach(TLS_FINDINGS, {
    title: 'TLS volgens de NCSC-richtlijn (Goed)',
    language: 'caddyfile',
    snippet: 'tls {\n    protocols tls1.2 tls1.3\n    ciphers TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256 TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256 TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n    curves x25519 secp384r1 secp256r1\n}',
  }),
  server_version_disclosure: { title: 'Server-header weglaten', language: 'caddyfile', snippet: 'header -Server' },
};
