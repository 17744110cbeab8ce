import { forEach, type FixTable } from './fix.ts';
import {
  cspNote,
  GOOD_CIPHERS,
  GOOD_CURVES,
  GOOD_SIGNATURE_ALGORITHMS,
  headerTable,
  COOKIE_ATTRIBUTE_FINDINGS,
  EXPOSED_FILE_FINDINGS,
  EXPOSED_FILES_NOTE,
  OPERATOR_PATHS,
  REDIRECT_FINDINGS,
  SENSITIVE_EXTENSIONS,
  SENSITIVE_NAMES,
  TLS_CONFIGURATION_FINDINGS,
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
  ...forEach(EXPOSED_FILE_FINDINGS, {
    title: "Gevoelige bestanden en beheerpagina's afschermen",
    language: 'apache',
    context: 'virtualhost',
    snippet: [
      '<LocationMatch "/\\.(?!well-known(/|$))">',
      '    Require all denied',
      '</LocationMatch>',
      `<LocationMatch "(?i)(\\.(${SENSITIVE_EXTENSIONS})|~)$">`,
      '    Require all denied',
      '</LocationMatch>',
      `<LocationMatch "(?i)^/(${SENSITIVE_NAMES})$">`,
      '    Require all denied',
      '</LocationMatch>',
      `<LocationMatch "^/(${OPERATOR_PATHS})(/|$)">`,
      '    Require all denied',
      '</LocationMatch>',
    ].join('\n'),
    notes: `${EXPOSED_FILES_NOTE} Test daarna met apache2ctl configtest en herstart.`,
  }),
  wordpress_xmlrpc_enabled: {
    title: 'xmlrpc.php weigeren',
    language: 'apache',
    context: 'virtualhost',
    snippet: '<Files xmlrpc.php>\n    Require all denied\n</Files>',
    notes: 'Alleen als geen app of plugin XML-RPC nodig heeft (de oude WordPress-app, Jetpack).',
  },
  wordpress_user_enumeration: {
    title: 'De gebruikerslijst van de REST API weigeren',
    language: 'apache',
    context: 'virtualhost',
    snippet: '<LocationMatch "^/wp-json/wp/v2/users">\n    Require all denied\n</LocationMatch>',
    notes: 'De REST API zelf blijft werken; alleen de lijst met gebruikersnamen is afgeschermd.',
  },
  directory_listing: {
    title: 'Mappenoverzicht uitzetten',
    language: 'apache',
    context: 'virtualhost',
    snippet: '<Directory /var/www/html>\n    Options -Indexes\n</Directory>',
    notes: 'Gebruik het pad van uw DocumentRoot. Debian zet Indexes aan in /etc/apache2/apache2.conf voor /var/www/.',
  },
  nextjs_middleware_bypass: {
    title: 'Header x-middleware-subrequest niet doorgeven aan Next.js',
    language: 'apache',
    context: 'virtualhost',
    snippet: 'RequestHeader unset x-middleware-subrequest',
    notes:
      'Vereist mod_headers (a2enmod headers); zet het in de VirtualHost die naar Next.js doorstuurt. Werk Next.js ook bij.',
  },
  ...forEach(COOKIE_ATTRIBUTE_FINDINGS, {
    title: 'Cookie-attributen toevoegen',
    language: 'apache',
    context: 'virtualhost',
    snippet:
      'Header always edit* Set-Cookie "(?i)^((?!.*;\\s*secure).*)$" "$1; Secure"\nHeader always edit* Set-Cookie "(?i)^((?!.*;\\s*httponly).*)$" "$1; HttpOnly"\nHeader always edit* Set-Cookie "(?i)^((?!.*;\\s*samesite).*)$" "$1; SameSite=Lax"',
    notes:
      'Vereist mod_headers. Een cookie die JavaScript moet lezen krijgt geen HttpOnly: beperk de regel dan tot de andere cookies. Beter is het in de applicatie zelf te zetten.',
  }),
  ...forEach(TLS_CONFIGURATION_FINDINGS, {
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
