import { FINDING_TYPES, type FindingType } from '../catalog/index.ts';
import { CERTIFICATE_CHAIN_FINDINGS } from '../catalog/ssl-tls.ts';
import type { FixEntry, FixTable } from './fix.ts';

/**
 * The header values every target sets, each one the scanner accepts: what the fix tables of the
 * servers and platforms write in their own syntax.
 */
export interface HeaderValue {
  name: string;
  value: string;
}

const HSTS: HeaderValue = { name: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains' };
const CSP: HeaderValue = {
  name: 'Content-Security-Policy',
  value: "default-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
};
const XFO: HeaderValue = { name: 'X-Frame-Options', value: 'DENY' };
const XCTO: HeaderValue = { name: 'X-Content-Type-Options', value: 'nosniff' };
const REFERRER: HeaderValue = { name: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' };
const PERMISSIONS: HeaderValue = { name: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' };
const COOP: HeaderValue = { name: 'Cross-Origin-Opener-Policy', value: 'same-origin' };
const CORP: HeaderValue = { name: 'Cross-Origin-Resource-Policy', value: 'same-origin' };
const COEP: HeaderValue = { name: 'Cross-Origin-Embedder-Policy', value: 'require-corp' };

export const HEADER_VALUES: Partial<Record<FindingType, HeaderValue>> = {
  hsts_missing: HSTS,
  hsts_invalid: HSTS,
  hsts_max_age_too_short: HSTS,
  hsts_no_include_subdomains: HSTS,
  csp_missing: CSP,
  csp_report_only: CSP,
  csp_invalid: CSP,
  csp_unsafe_inline: CSP,
  csp_unsafe_eval: CSP,
  csp_script_src_wildcard: CSP,
  csp_object_src_unrestricted: CSP,
  csp_insecure_scheme: CSP,
  csp_insecure_scheme_passive: CSP,
  csp_style_unsafe_inline: CSP,
  csp_frame_ancestors_missing: CSP,
  csp_frame_ancestors_wildcard: CSP,
  csp_base_uri_missing: CSP,
  csp_meta_only: CSP,
  x_frame_options_missing: XFO,
  x_frame_options_invalid: XFO,
  x_frame_options_allow_from: XFO,
  x_content_type_options_missing: XCTO,
  x_content_type_options_invalid: XCTO,
  referrer_policy_missing: REFERRER,
  referrer_policy_unsafe: REFERRER,
  referrer_policy_invalid: REFERRER,
  permissions_policy_missing: PERMISSIONS,
  coop_missing: COOP,
  coop_invalid: COOP,
  corp_invalid: CORP,
  coep_invalid: COEP,
};

/** A target's header fixes: every header finding, written by the target's template. */
export const headerTable = (entry: (header: HeaderValue) => FixEntry): FixTable =>
  Object.fromEntries(Object.entries(HEADER_VALUES).map(([type, header]) => [type, entry(header)]));

/** The CSP's extra word of caution, for the targets that add notes. */
export const cspNote = (header: HeaderValue) => (header.name === 'Content-Security-Policy' ? HEADER_NOTE : undefined);

export const HEADER_NOTE =
  'Een Content-Security-Policy die alleen de eigen site toestaat blokkeert scripts, stijlen en beelden van andere domeinen: voeg die per soort toe (script-src, style-src, img-src) voordat u hem aanzet.';

export { TLS_CONFIGURATION_FINDINGS } from '../catalog/ssl-tls.ts';

/** The NCSC-NL 2025 "Goed" set the scanner grades uitstekend: ECDHE with AES-GCM and ChaCha20, strongest first. */
export const GOOD_CIPHERS =
  'ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256';
export const GOOD_CURVES = 'X25519:secp384r1:secp256r1';
export const GOOD_SIGNATURE_ALGORITHMS =
  'RSA-PSS+SHA256:RSA-PSS+SHA384:RSA-PSS+SHA512:ECDSA+SHA256:ECDSA+SHA384:ECDSA+SHA512:RSA+SHA256:RSA+SHA384:RSA+SHA512';

/** What renewing or fixing the certificate (with its full chain) mends, HTTPS itself and HSTS behind it included. */
export const CERTIFICATE_FINDINGS: readonly FindingType[] = [
  ...CERTIFICATE_CHAIN_FINDINGS,
  'https_unavailable',
  'hsts_ignored_invalid_certificate',
];

export { REDIRECT_FINDINGS } from '../catalog/ssl-tls.ts';
export { SECURITY_TXT_FINDINGS } from '../catalog/security-headers.ts';

/**
 * Files and endpoints that do not belong on a public web server: one set of rules per server covers
 * them all (version control, .env, keys, dumps, back-ups, logs, debug and status pages, API specs,
 * source maps), so each of these findings points to the same rules.
 */
export const EXPOSED_FILE_FINDINGS: readonly FindingType[] = FINDING_TYPES.filter((type) =>
  type.startsWith('exposed_'),
);

/** Cookie attributes a proxy can add to the application's cookies (Secure, HttpOnly, SameSite). */
export const COOKIE_ATTRIBUTE_FINDINGS: readonly FindingType[] = [
  'cookie_missing_secure',
  'session_cookie_missing_secure',
  'session_cookie_missing_httponly',
  'cookie_missing_samesite',
  'csrf_cookie_missing_samesite',
];

/** Extensions of dumps, back-ups, archives, keys, logs and source maps, for the servers' patterns. */
export const SENSITIVE_EXTENSIONS =
  'sql|sql\\.gz|bak|old|orig|save|swp|tar|tgz|tar\\.gz|zip|7z|rar|key|pem|log|map|hprof';
/** Names that are never a page: compose files, SSH keys, PHP's info pages. */
export const SENSITIVE_NAMES = 'docker-compose\\.ya?ml|id_rsa|id_ed25519|id_ecdsa|phpinfo\\.php|info\\.php';
/** Application endpoints for operators only: Spring Boot's actuator and heap dumps, status pages, API documentation. */
export const OPERATOR_PATHS =
  'actuator|env|heapdump|server-status|nginx_status|swagger-ui\\.html|swagger\\.json|openapi\\.json|v[23]/api-docs';

export const EXPOSED_FILES_NOTE =
  "De regels weigeren (403) verborgen bestanden en mappen behalve /.well-known/, back-ups, dumps, sleutels, logbestanden, source maps en beheerpagina's. Is een API-beschrijving of source map bewust openbaar, haal die uit de regel. Verwijder de bestanden daarna ook van de server: wat al gedownload is, is uitgelekt (wijzig wachtwoorden en sleutels).";
