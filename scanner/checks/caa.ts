import { observe, type Check } from './context.ts';

/** CAA records (RFC 8659) for the site's domain, as internet.nl reports them. */
export const checkCaa: Check = (ctx) => {
  const caa = ctx.evidence.caa;
  if (!caa || caa.foundAt !== null) return [];
  return [
    observe(
      'caa_missing',
      `${new URL(ctx.evidence.target).origin}/`,
      `geen CAA-record voor ${caa.host} of een bovenliggend domein tot ${caa.domain}`,
    ),
  ];
};
