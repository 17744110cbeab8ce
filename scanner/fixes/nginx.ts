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
  ...forEach(TLS_CONFIGURATION_FINDINGS, {
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
  ...forEach(EXPOSED_FILE_FINDINGS, {
    title: "Gevoelige bestanden en beheerpagina's afschermen",
    language: 'nginx',
    context: 'server',
    snippet: [
      'location ~ /\\.(?!well-known(?:/|$)) {',
      '    deny all;',
      '}',
      `location ~* (?:\\.(?:${SENSITIVE_EXTENSIONS})|~)$ {`,
      '    deny all;',
      '}',
      `location ~* ^/(?:${SENSITIVE_NAMES})$ {`,
      '    deny all;',
      '}',
      `location ~ ^/(?:${OPERATOR_PATHS})(?:/|$) {`,
      '    deny all;',
      '}',
    ].join('\n'),
    notes: `${EXPOSED_FILES_NOTE} Regex-locations gaan voor de gewone location /. Test daarna met nginx -t en herstart.`,
  }),
  wordpress_xmlrpc_enabled: {
    title: 'xmlrpc.php weigeren',
    language: 'nginx',
    context: 'server',
    snippet: 'location = /xmlrpc.php {\n    deny all;\n}',
    notes: 'Alleen als geen app of plugin XML-RPC nodig heeft (de oude WordPress-app, Jetpack).',
  },
  wordpress_user_enumeration: {
    title: 'De gebruikerslijst van de REST API weigeren',
    language: 'nginx',
    context: 'server',
    snippet: 'location ~ ^/wp-json/wp/v2/users {\n    deny all;\n}\nif ($arg_author) {\n    return 403;\n}',
  },
  directory_listing: {
    title: 'Mappenoverzicht uitzetten',
    language: 'nginx',
    context: 'server',
    snippet: 'autoindex off;',
    notes:
      'autoindex staat standaard uit: zoek met grep -r autoindex /etc/nginx waar het aangezet is en verwijder die regel.',
  },
  nextjs_middleware_bypass: {
    title: 'Header x-middleware-subrequest niet doorgeven aan Next.js',
    language: 'nginx',
    context: 'server',
    snippet: 'proxy_set_header x-middleware-subrequest "";',
    notes:
      'Zet dit in de location die naar Next.js doorstuurt (naast proxy_pass). Werk Next.js ook bij: dit dekt alleen verzoeken via deze proxy.',
  },
  ...forEach(COOKIE_ATTRIBUTE_FINDINGS, {
    title: 'Cookie-attributen toevoegen bij de proxy',
    language: 'nginx',
    context: 'server',
    snippet: 'proxy_cookie_flags ~ secure httponly samesite=lax;',
    notes:
      'Voor cookies van een applicatie achter proxy_pass (nginx 1.19.3 of nieuwer). Een cookie die JavaScript moet lezen krijgt geen httponly: noem de andere cookies dan bij naam in plaats van ~. Beter is het in de applicatie zelf te zetten.',
  }),
  ...forEach(REDIRECT_FINDINGS, {
    title: 'HTTP doorsturen naar HTTPS',
    language: 'nginx',
    context: 'http',
    snippet:
      'server {\n    listen 80;\n    listen [::]:80;\n    server_name _;\n    return 301 https://$host$request_uri;\n}',
  }),
};
