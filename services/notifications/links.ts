import { createHash, randomBytes } from 'node:crypto';
import { DASHBOARD_PAGES, dashboardPath, MAIL_PAGES } from '../../domain/endpoints.ts';
import type { UnsubscribeCategory } from '../../domain/vocabulary.ts';
import { UNSUBSCRIBE_CATEGORIES } from '../../domain/vocabulary.ts';
import { secretBoxFor } from '../../infra/secret-encryption.ts';
import type { ServiceDeps } from '../deps.ts';

/** Every link in a notification: PUBLIC_URL and a path, never a request's Host. */
export function publicLink(deps: Pick<ServiceDeps, 'config'>, path: string): string {
  return `${deps.config.PUBLIC_URL ?? ''}${path}`;
}

export const siteLink = (deps: Pick<ServiceDeps, 'config'>, siteId: string) =>
  publicLink(deps, dashboardPath(DASHBOARD_PAGES.site, siteId));

/** A one-time token (256 bits, base64url) and the SHA-256 that is stored instead of it. */
export function oneTimeToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: tokenHash(token) };
}

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

const UNSUBSCRIBE = 'unsubscribe';

/** The one-click unsubscribe URL of one recipient and category (RFC 8058): signed, nothing stored. */
export function unsubscribeLink(
  deps: Pick<ServiceDeps, 'config'>,
  who: { tenantId: string; address: string; category: UnsubscribeCategory },
): string {
  const token = secretBoxFor(deps.config).sign(
    UNSUBSCRIBE,
    JSON.stringify([who.tenantId, who.address.toLowerCase(), who.category]),
  );
  return publicLink(deps, `${MAIL_PAGES.unsubscribe}?token=${token}`);
}

/** Who an unsubscribe token is for; null for a token this service did not sign. */
export function readUnsubscribeToken(
  deps: Pick<ServiceDeps, 'config'>,
  token: string,
): { tenantId: string; address: string; category: UnsubscribeCategory } | null {
  const text = secretBoxFor(deps.config).verify(UNSUBSCRIBE, token);
  if (!text) return null;
  try {
    const [tenantId, address, category] = JSON.parse(text) as [string, string, UnsubscribeCategory];
    if (!UNSUBSCRIBE_CATEGORIES.includes(category)) return null;
    return { tenantId, address, category };
  } catch {
    return null;
  }
}
