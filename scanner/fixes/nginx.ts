import { forEach, type FixTable } from './fix.ts';
import {
  cspNote,
  GOOD_CIPHERS,
  GOOD_CURVES,
  GOOD_SIGNATURE_ALGORITHMS,
  headerTable,
  REDIRECT_FINDINGS,
  TLS_FINDINGS,
} from './shared.ts';

// Debian's nginx 1.22 with OpenSSL 3: directives replace those of the same name in the server block.
const headers = headerTable((header) => ({
  title: `${header.name} meesturen`,
  language: 'nginx',
  context: 'server',
  snippet: `add_header ${header.name} "${header.value}" always;`,
  notes: [
    'Een add_header in een location-blok vervangt alle add_header-regels van het server-blok: herhaal ze daar.',
    cspNote(header),
  ]
    .filter(Boolean)
    .join(' '),
}));

export const NGINX_FIXES: FixTable = {
  ...headers,
  ...forEach(TLS_FINDINGS, {
    title: 'TLS volgens de NCSC-richtlijn (Goed)',
    language: 'nginx',
    context: 'server',
    snippet: [
      'ssl_protocols TLSv1.2 TLSv1.3;',
      `ssl_ciphers ${GOOD_CIPHERS};`,
      'ssl_prefer_server_ciphers on;',
      `ssl_ecdh_curve ${GOOD_CURVES};`,
      `ssl_conf_command SignatureAlgorithms ${GOOD_SIGNATURE_ALGORITHMS};`,
    ].join('\n'),
    notes: 'nginx staat renegotiation door de client en TLS-compressie niet toe. Test daarna met nginx -t en herstart.',
  }),
  server_version_disclosure: {
    title: 'Versienummer van nginx verbergen',
    language: 'nginx',
    context: 'http',
    snippet: 'server_tokens off;',
  },
  x_powered_by_disclosure: {
    title: 'X-Powered-By van de applicatie weglaten',
    language: 'nginx',
    context: 'server',
    snippet: 'proxy_hide_header X-Powered-By;\nfastcgi_hide_header X-Powered-By;',
  },
  ...forEach(REDIRECT_FINDINGS, {
    title: 'HTTP doorsturen naar HTTPS',
    language: 'nginx',
    context: 'http',
    snippet:
      'server {\n    listen 80;\n    listen [::]:80;\n    server_name _;\n    return 301 https://$host$request_uri;\n}',
  }),
};
