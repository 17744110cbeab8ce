import { headerValues } from '../net/headers.ts';
import { observe, type AnalysisContext, type Check } from './context.ts';
import type { Observation } from '../types.ts';

type Policy = Map<string, string[]>;

const BROAD = new Set(['ftp:', 'http:', 'https:', '*', 'http://*', 'http://*.*', 'https://*', 'https://*.*']);
const INLINE = new Set(["'unsafe-inline'", 'data:']);
const PASSIVE = new Set(['img-src', 'media-src']);
const NONCE_OR_HASH = /^'(nonce|sha256|sha384|sha512)-/;
const ALLOWED_DUPLICATES = new Set(['report-uri', 'report-to']);
const META_FORBIDDEN = ['frame-ancestors', 'report-uri', 'sandbox'];
// Shorter than the shortest meaningful directive ("img-src" less one): not a policy.
const MIN_POLICY_LENGTH = 6;

class InvalidPolicy extends Error {}

function splitPolicies(values: string[]): string[] {
  return values.flatMap((value) => value.split(',')).map((p) => p.replace(/[\r\n]/g, '').trim());
}

export function parsePolicy(text: string): Policy {
  if (text.length < MIN_POLICY_LENGTH) throw new InvalidPolicy(text);
  const policy: Policy = new Map();
  for (const part of text.split(';')) {
    const [rawName, ...sources] = part.trim().split(/\s+/);
    if (!rawName) continue;
    const name = rawName.toLowerCase();
    if (policy.has(name)) {
      if (ALLOWED_DUPLICATES.has(name)) continue;
      throw new InvalidPolicy(`duplicate ${name}`);
    }
    const values = sources.map((s) => s.toLowerCase());
    policy.set(name, values.length === 0 && name.endsWith('-src') ? ["'none'"] : values);
  }
  return policy;
}

/** Sources a policy applies to a directive; null when the directive is unrestricted by omission. */
function effective(policy: Policy, directive: string, fallback: boolean): string[] | null {
  return policy.get(directive) ?? (fallback ? policy.get('default-src') : undefined) ?? null;
}

/** Content must pass every policy, so only sources allowed by all of them remain. */
function combined(policies: Policy[], directive: string, fallback: boolean): string[] {
  let result: string[] | null = null;
  for (const policy of policies) {
    const sources = effective(policy, directive, fallback);
    if (sources === null) continue;
    result = result === null ? [...sources] : result.filter((s) => sources.includes(s));
  }
  if (result === null) return ['*'];
  return result.length === 0 ? ["'none'"] : result;
}

interface CspPolicies {
  header: Policy[];
  meta: Policy[];
}

function readPolicies(ctx: AnalysisContext): CspPolicies | 'invalid' | null {
  const page = ctx.evidence.page!;
  const headerTexts = splitPolicies(headerValues(page.headers, 'content-security-policy'));
  const metaTexts = splitPolicies(ctx.html?.httpEquiv['content-security-policy'] ?? []);
  try {
    const header = headerTexts.map(parsePolicy);
    const meta = metaTexts.map(parsePolicy);
    for (const policy of meta) for (const name of META_FORBIDDEN) policy.delete(name);
    const usableMeta = meta.filter((p) => p.size > 0);
    if (header.length + usableMeta.length === 0) return null;
    return { header, meta: usableMeta };
  } catch (error) {
    if (error instanceof InvalidPolicy) return 'invalid';
    throw error;
  }
}

const show = (sources: string[]) => sources.join(' ');

export const checkContentSecurityPolicy: Check = (ctx) => {
  const page = ctx.evidence.page;
  if (!page) return [];
  const at = page.url;
  const parsed = readPolicies(ctx);
  if (parsed === 'invalid') {
    return [observe('csp_invalid', at, headerValues(page.headers, 'content-security-policy').join(', '))];
  }
  if (parsed === null) {
    const reportOnly = headerValues(page.headers, 'content-security-policy-report-only');
    if (reportOnly.length > 0) return [observe('csp_report_only', at, reportOnly.join(', '))];
    return [observe('csp_missing', at)];
  }
  const policies = [...parsed.header, ...parsed.meta];
  const found: Observation[] = [];
  const script = combined(policies, 'script-src', true);
  const style = combined(policies, 'style-src', true);
  const object = combined(policies, 'object-src', true);

  for (const list of [script, style]) {
    if (list.some((s) => NONCE_OR_HASH.test(s))) removeAll(list, (s) => s === "'unsafe-inline'");
  }
  if (script.includes("'strict-dynamic'")) {
    if (!script.some((s) => NONCE_OR_HASH.test(s))) {
      return [observe('csp_invalid', at, `script-src ${show(script)}`)];
    }
    // With strict-dynamic, browsers ignore host and scheme sources, 'self' and 'unsafe-inline'.
    removeAll(script, (s) => [...BROAD].some((b) => s.startsWith(b)) || s === "'self'" || s === "'unsafe-inline'");
  }

  if (script.some((s) => INLINE.has(s))) found.push(observe('csp_unsafe_inline', at, `script-src ${show(script)}`));
  if (script.some((s) => BROAD.has(s)))
    found.push(observe('csp_script_src_wildcard', at, `script-src ${show(script)}`));
  if (object.some((s) => BROAD.has(s)))
    found.push(observe('csp_object_src_unrestricted', at, `object-src ${show(object)}`));
  if ([...script, ...style].includes("'unsafe-eval'"))
    found.push(observe('csp_unsafe_eval', at, `script-src ${show(script)}`));

  if (page.url.startsWith('https:')) {
    const insecure = (s: string) => s.startsWith('http:') || s.startsWith('ftp:');
    const active = [
      ...policies.flatMap((p) =>
        [...p.entries()].filter(([d]) => !PASSIVE.has(d) && d !== 'script-src').flatMap(([, s]) => s),
      ),
      ...script,
    ];
    const passive = [...PASSIVE].flatMap((d) =>
      policies.some((p) => effective(p, d, true)) ? combined(policies, d, true) : [],
    );
    if (active.some(insecure)) found.push(observe('csp_insecure_scheme', at, active.filter(insecure).join(' ')));
    else if (passive.some(insecure))
      found.push(observe('csp_insecure_scheme_passive', at, passive.filter(insecure).join(' ')));
  }
  if (style.some((s) => INLINE.has(s) || BROAD.has(s)))
    found.push(observe('csp_style_unsafe_inline', at, `style-src ${show(style)}`));

  // frame-ancestors only works in a header policy.
  const frameAncestors = parsed.header.length > 0 ? combined(parsed.header, 'frame-ancestors', false) : ['*'];
  const declaresFrameAncestors = parsed.header.some((p) => p.has('frame-ancestors'));
  if (!declaresFrameAncestors) found.push(observe('csp_frame_ancestors_missing', at));
  else if (frameAncestors.some((s) => BROAD.has(s))) {
    found.push(observe('csp_frame_ancestors_wildcard', at, `frame-ancestors ${show(frameAncestors)}`));
  }
  const baseUri = combined(policies, 'base-uri', false);
  if (baseUri.some((s) => BROAD.has(s) || INLINE.has(s))) {
    found.push(
      observe('csp_base_uri_missing', at, policies.some((p) => p.has('base-uri')) ? `base-uri ${show(baseUri)}` : null),
    );
  }
  if (parsed.header.length === 0)
    found.push(observe('csp_meta_only', at, ctx.html?.httpEquiv['content-security-policy']?.join(', ') ?? null));
  return found;
};

function removeAll(list: string[], predicate: (s: string) => boolean): void {
  for (let i = list.length - 1; i >= 0; i--) if (predicate(list[i]!)) list.splice(i, 1);
}

/** Whether the enforced header CSP declares frame-ancestors (used by the X-Frame-Options check). */
/** Whether an enforced policy (header or meta) asks browsers to upgrade http:// subresources. */
export function upgradesInsecureRequests(ctx: AnalysisContext): boolean {
  const policies = readPolicies(ctx);
  if (policies === null || policies === 'invalid') return false;
  return [...policies.header, ...policies.meta].some((policy) => policy.has('upgrade-insecure-requests'));
}

export function headerCspDeclaresFrameAncestors(ctx: AnalysisContext): boolean {
  const page = ctx.evidence.page;
  if (!page) return false;
  try {
    return splitPolicies(headerValues(page.headers, 'content-security-policy'))
      .map(parsePolicy)
      .some((p) => p.has('frame-ancestors'));
  } catch {
    return false;
  }
}
