import { checkCookies } from '../checks/cookies.ts';
import { checkEmbedderPolicy, checkOpenerPolicy, checkResourcePolicy } from '../checks/cross-origin-policies.ts';
import { checkContentSecurityPolicy } from '../checks/csp.ts';
import { checkFrameOptions } from '../checks/framing.ts';
import { checkMixedContent, checkPasswordOverHttp } from '../checks/mixed-content.ts';
import {
  checkContentTypeOptions,
  checkPermissionsPolicy,
  checkReferrerPolicy,
  checkVersionDisclosure,
} from '../checks/simple-headers.ts';
import { checkSubresourceIntegrity } from '../checks/subresource-integrity.ts';
import { defineTest, pageOriginOf } from './test.ts';

/**
 * The page's own headers and HTML: what the Observatory judges of a response. A crawl judges every
 * page it reads; each problem is one finding on the site with the pages where it occurs.
 */
export const securityHeadersTest = defineTest({
  name: 'security_headers',
  category: 'SECURITY_HEADER',
  subject: 'page',
  reach: 'passive',
  crawl: 'page',
  readsPage: true,
  produces: [
    'csp_missing',
    'csp_report_only',
    'csp_invalid',
    'csp_unsafe_inline',
    'csp_script_src_wildcard',
    'csp_object_src_unrestricted',
    'csp_unsafe_eval',
    'csp_insecure_scheme',
    'csp_insecure_scheme_passive',
    'csp_style_unsafe_inline',
    'csp_frame_ancestors_missing',
    'csp_frame_ancestors_wildcard',
    'csp_base_uri_missing',
    'csp_meta_only',
    'x_frame_options_missing',
    'x_frame_options_invalid',
    'x_frame_options_allow_from',
    'x_content_type_options_missing',
    'x_content_type_options_invalid',
    'referrer_policy_missing',
    'referrer_policy_unsafe',
    'referrer_policy_invalid',
    'permissions_policy_missing',
    'coop_missing',
    'coop_invalid',
    'coep_invalid',
    'corp_invalid',
    'cookie_missing_secure',
    'session_cookie_missing_secure',
    'session_cookie_missing_httponly',
    'cookie_samesite_invalid',
    'cookie_samesite_none_without_secure',
    'csrf_cookie_missing_samesite',
    'cookie_missing_samesite',
    'cookie_prefix_invalid',
    'sri_missing',
    'external_script_insecure',
    'script_protocol_relative',
    'server_version_disclosure',
    'x_powered_by_disclosure',
    'mixed_content_script',
    'mixed_content_password_form',
    'mixed_content_active',
    'mixed_content_passive',
    'password_field_insecure_page',
  ],
  checks: {
    content_security_policy: checkContentSecurityPolicy,
    frame_options: checkFrameOptions,
    content_type_options: checkContentTypeOptions,
    referrer_policy: checkReferrerPolicy,
    permissions_policy: checkPermissionsPolicy,
    cross_origin_opener_policy: checkOpenerPolicy,
    cross_origin_embedder_policy: checkEmbedderPolicy,
    cross_origin_resource_policy: checkResourcePolicy,
    cookies: checkCookies,
    subresource_integrity: checkSubresourceIntegrity,
    mixed_content: checkMixedContent,
    password_over_http: checkPasswordOverHttp,
    version_disclosure: checkVersionDisclosure,
  },
  subjectOf: pageOriginOf,
});
