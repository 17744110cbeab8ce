import { confirmRecipient, unsubscribe } from '../../db/notifications.ts';
import { isoNow, type ServiceDeps } from '../deps.ts';
import { readUnsubscribeToken, tokenHash } from './links.ts';

const CATEGORY_NAMES = { alerts: 'directe meldingen', digest: 'overzichten' } as const;

/** Confirms an outside address by the token its confirmation mail carried; false for an unknown or used token. */
export async function confirmAddress(deps: ServiceDeps, token: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return false;
  return (await confirmRecipient(deps.db, tokenHash(token), isoNow(deps))) !== null;
}

/** What an unsubscribe link is for, in words, without changing anything (a GET, which link scanners fetch). */
export function describeUnsubscribe(deps: ServiceDeps, token: string): string | null {
  const who = readUnsubscribeToken(deps, token);
  return who ? `${CATEGORY_NAMES[who.category]} aan ${who.address}` : null;
}

/** Stops one category for one recipient of one tenant (RFC 8058 one-click POST); false for a token this service did not sign. */
export async function unsubscribeByToken(deps: ServiceDeps, token: string): Promise<boolean> {
  const who = readUnsubscribeToken(deps, token);
  if (!who) return false;
  await unsubscribe(deps.db, who.tenantId, who.address, who.category, isoNow(deps));
  return true;
}
