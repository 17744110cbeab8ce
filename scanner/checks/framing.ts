import { firstHeader } from '../net/headers.ts';
import { observe, type Check } from './context.ts';
import { headerCspDeclaresFrameAncestors } from './csp.ts';

/** Clickjacking: X-Frame-Options, unless CSP frame-ancestors (which supersedes it) is present. */
export const checkFrameOptions: Check = (ctx) => {
  const page = ctx.evidence.page;
  if (!page || headerCspDeclaresFrameAncestors(ctx)) return [];
  const value = firstHeader(page.headers, 'x-frame-options');
  if (value === null) return [observe('x_frame_options_missing', page.url)];
  const normalized = value.trim().toLowerCase();
  if (normalized === 'deny' || normalized === 'sameorigin') return [];
  if (normalized.startsWith('allow-from')) return [observe('x_frame_options_allow_from', page.url, value)];
  return [observe('x_frame_options_invalid', page.url, value)];
};
