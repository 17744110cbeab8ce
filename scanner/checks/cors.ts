import { firstHeader } from '../net/headers.ts';
import { observe, type Check } from './context.ts';

/** The page is requested with a foreign Origin; what the server allows back decides. */
export const checkCors: Check = (ctx) => {
  const page = ctx.evidence.page;
  if (!page) return [];
  const allowOrigin = firstHeader(page.headers, 'access-control-allow-origin')?.trim();
  if (!allowOrigin) return [];
  const credentials = firstHeader(page.headers, 'access-control-allow-credentials')?.trim().toLowerCase() === 'true';
  const shown = `Access-Control-Allow-Origin: ${allowOrigin}${credentials ? '; Access-Control-Allow-Credentials: true' : ''}`;
  if (allowOrigin === page.requestOrigin) {
    return [observe(credentials ? 'cors_reflected_origin_with_credentials' : 'cors_reflected_origin', page.url, shown)];
  }
  if (allowOrigin === '*' && credentials) return [observe('cors_wildcard_with_credentials', page.url, shown)];
  if (allowOrigin === 'null' && credentials) return [observe('cors_null_origin_with_credentials', page.url, shown)];
  return [];
};
