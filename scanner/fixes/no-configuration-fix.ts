import type { FindingType } from '../catalog/index.ts';
import { SECRET_KIND_NAMES, secretFindingType } from '../secrets/secret-rules.ts';

/**
 * Finding types that no server or platform configuration fixes, with the reason: their remediation
 * (in the catalog) says what to change instead. Every finding type has fixes or a reason here
 * (test/real-server-fixes.test.ts holds that).
 */
export const NO_CONFIGURATION_FIX: Partial<Record<FindingType, string>> = {
  ...Object.fromEntries(
    // Supabase's secret key has a fix of its own (the Supabase table): rotating it in the project settings.
    SECRET_KIND_NAMES.filter((kind) => kind !== 'supabase_secret').map((kind) => [
      secretFindingType(kind),
      'a key in client code is revoked where it was issued and moved to server code; no configuration takes back the copies already made',
    ]),
  ),
  tls_secure_renegotiation_missing:
    'comes with the TLS library: upgrade the server software (OpenSSL 0.9.8m or later has RFC 5746)',
  tls_extended_master_secret_missing:
    'comes with the TLS library: upgrade the server software (OpenSSL 1.1.0 or later has RFC 7627)',
  cookie_samesite_invalid: 'the application writes an invalid SameSite value: correct it where the cookie is set',
  cookie_samesite_none_without_secure:
    'the application sets SameSite=None on purpose: it adds Secure where it sets the cookie',
  cookie_prefix_invalid: 'a __Host- or __Secure- name is a promise the application keeps where it sets the cookie',
  cors_reflected_origin_with_credentials:
    'the application echoes any Origin: only its code knows which origins are meant, so it checks them against a list',
  cors_reflected_origin: 'the application echoes any Origin: its code checks them against a list',
  cors_wildcard_with_credentials: 'the application combines * with credentials: its code names the allowed origins',
  cors_null_origin_with_credentials: 'the application allows the null origin: its code removes it from the list',
  sri_missing: 'integrity attributes belong in the HTML where the page is built (or the bundler adds them)',
  external_script_insecure: 'the page loads a script over http://: the URL is changed where the page is built',
  script_protocol_relative: 'the page writes //host URLs: they become https:// where the page is built',
  mixed_content_script: 'the page loads http:// resources: the URLs are changed where the page is built',
  mixed_content_password_form: 'the form posts to http://: its action is changed where the page is built',
  password_field_insecure_page: 'the page is served over http://: the site redirects to https:// where it is hosted',
  mixed_content_active: 'the page loads http:// resources: the URLs are changed where the page is built',
  mixed_content_passive: 'the page loads http:// resources: the URLs are changed where the page is built',
  graphql_introspection_enabled: "the GraphQL server's own setting (introspection off in production)",
  crossdomain_wildcard: 'the crossdomain.xml file itself is changed or removed',
  firebase_database_open_personal: 'Firebase Security Rules, in the Firebase console or database.rules.json',
  firebase_database_open: 'Firebase Security Rules, in the Firebase console or database.rules.json',
  firebase_storage_listable: 'Firebase Storage Security Rules, in the Firebase console or storage.rules',
};
