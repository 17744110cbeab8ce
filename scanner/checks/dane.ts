import { originOf } from './transport.ts';
import { observe, type Check } from './context.ts';

/**
 * DANE for the web host (RFC 6698, as internet.nl and testssl.sh judge it): TLSA records that the
 * resolver validated (AD) and that match nothing the server sent make clients that check DANE
 * refuse the site. Unsigned records are not trusted, so they neither pass nor fail.
 */
export const checkDane: Check = (ctx) => {
  const dane = ctx.evidence.internetnl?.dane;
  const tls = ctx.evidence.tls;
  if (!dane || !tls || !dane.secure || dane.matches !== false) return [];
  return [observe('tls_dane_invalid', originOf(tls), dane.records.slice(0, 5).join('; '))];
};
