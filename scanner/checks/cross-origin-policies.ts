import type { FindingType } from '../catalog/index.ts';
import { headerValues } from '../net/headers.ts';
import { observe, type Check } from './context.ts';

const TOKEN = /^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*$/;
const PARAM_KEY = /^[a-z*][a-z0-9_\-.*]*$/;
const PARAM_VALUE =
  /^(?:[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*|"(?:[^"\\]|\\["\\])*"|-?\d{1,15}(?:\.\d{1,3})?|\?[01]|:[A-Za-z0-9+/=]*:)$/;

/** The token of an RFC 8941 structured-field item (parameters allowed), or null when malformed. */
export function structuredFieldToken(value: string): string | null {
  const [item, ...params] = value.trim().split(';');
  const token = item!.trim();
  if (!TOKEN.test(token)) return null;
  for (const param of params) {
    const [key, ...rest] = param.trim().split('=');
    if (!PARAM_KEY.test(key!)) return null;
    if (rest.length > 0 && !PARAM_VALUE.test(rest.join('='))) return null;
  }
  return token;
}

function policyCheck(
  header: string,
  allowed: string[],
  missingType: FindingType | null,
  invalidType: FindingType,
  plain = false,
): Check {
  return (ctx) => {
    const page = ctx.evidence.page;
    if (!page) return [];
    const values = headerValues(page.headers, header);
    if (values.length === 0) return missingType ? [observe(missingType, page.url)] : [];
    const token =
      values.length === 1 ? (plain ? values[0]!.trim().toLowerCase() : structuredFieldToken(values[0]!)) : null;
    return token !== null && allowed.includes(token) ? [] : [observe(invalidType, page.url, values.join(', '))];
  };
}

export const checkOpenerPolicy = policyCheck(
  'cross-origin-opener-policy',
  ['same-origin', 'same-origin-allow-popups', 'noopener-allow-popups', 'unsafe-none'],
  'coop_missing',
  'coop_invalid',
);
// COEP and CORP are opt-in isolation features: only a malformed value is a problem.
export const checkEmbedderPolicy = policyCheck(
  'cross-origin-embedder-policy',
  ['require-corp', 'credentialless', 'unsafe-none'],
  null,
  'coep_invalid',
);
export const checkResourcePolicy = policyCheck(
  'cross-origin-resource-policy',
  ['same-site', 'same-origin', 'cross-origin'],
  null,
  'corp_invalid',
  true,
);
