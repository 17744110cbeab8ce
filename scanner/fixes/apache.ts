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

// Debian's Apache 2.4 with mod_ssl and mod_headers (a2enmod ssl headers): directives replace those
// of the same name in the VirtualHost, or in the main configuration where Apache allows them only there.
const headers = headerTable((header) => ({
  title: `${header.name} meesturen`,
  language: 'apache',
  context: 'virtualhost',
  snippet: `Header always set ${header.name} "${header.value}"`,
  notes: ['Vereist mod_headers (a2enmod headers).', cspNote(header)].filter(Boolean).join(' '),
}));

export const APACHE_FIXES: FixTable = {
  ...headers,
  ...forEach(TLS_FINDINGS, {
    title: 'TLS volgens de NCSC-richtlijn (Goed)',
    language: 'apache',
    context: 'virtualhost',
    snippet: [
      'SSLProtocol -all +TLSv1.2 +TLSv1.3',
      `SSLCipherSuite ${GOOD_CIPHERS}`,
      'SSLHonorCipherOrder on',
      `SSLOpenSSLConfCmd Curves ${GOOD_CURVES}`,
      `SSLOpenSSLConfCmd SignatureAlgorithms ${GOOD_SIGNATURE_ALGORITHMS}`,
      'SSLCompression off',
    ].join('\n'),
    notes:
      'Alleen ECDHE-suites: de DHE-groep van mod_ssl wordt dan niet meer gebruikt. Test daarna met apache2ctl configtest en herstart.',
  }),
  server_version_disclosure: {
    title: 'Versie van Apache en het besturingssysteem verbergen',
    language: 'apache',
    context: 'server',
    snippet: 'ServerTokens Prod\nServerSignature Off',
    notes: 'In de hoofdconfiguratie (Debian: /etc/apache2/conf-available/security.conf), niet in een VirtualHost.',
  },
  x_powered_by_disclosure: {
    title: 'X-Powered-By van de applicatie weglaten',
    language: 'apache',
    context: 'virtualhost',
    snippet: 'Header always unset X-Powered-By\nHeader unset X-Powered-By',
  },
  ...forEach(REDIRECT_FINDINGS, {
    title: 'HTTP doorsturen naar HTTPS',
    language: 'apache',
    context: 'server',
    snippet:
      '<VirtualHost *:80>\n    ServerName voorbeeld.nl\n    Redirect permanent / https://voorbeeld.nl/\n</VirtualHost>',
    notes: 'Vervang voorbeeld.nl door de naam van de site.',
  }),
};
