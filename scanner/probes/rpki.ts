// Route-origin validation as internet.nl does it: the origin AS and prefix that announce an address
// (a RIPEstat-compatible prefix-overview), then their validity at a Routinator-compatible validator
// (/api/v1/validity/{asn}/{prefix}). Both URLs are the operator's settings, not site data.

export interface RpkiRoute {
  address: string;
  asn: number | null;
  prefix: string | null;
  validity: 'valid' | 'invalid' | 'not_found' | 'not_routed' | 'error';
}

export interface RpkiSources {
  validatorUrl: string;
  originUrl: string;
  timeoutMs: number;
  signal: AbortSignal;
}

const MAX_ANSWER_BYTES = 1024 * 1024;

async function json(url: string, sources: RpkiSources): Promise<unknown> {
  const response = await fetch(url, {
    signal: AbortSignal.any([sources.signal, AbortSignal.timeout(sources.timeoutMs)]),
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const text = await response.text();
  if (text.length > MAX_ANSWER_BYTES) throw new Error('antwoord te groot');
  return JSON.parse(text);
}

/** RIPEstat's prefix-overview: `{data: {announced, resource, asns: [{asn}]}}`. */
function originOf(answer: unknown): { asn: number; prefix: string } | null {
  const data = (answer as { data?: { announced?: boolean; resource?: string; asns?: Array<{ asn?: number }> } })?.data;
  const asn = data?.asns?.[0]?.asn;
  if (!data?.announced || typeof asn !== 'number' || typeof data.resource !== 'string') return null;
  return { asn, prefix: data.resource };
}

const STATES: Record<string, RpkiRoute['validity']> = { valid: 'valid', invalid: 'invalid', 'not-found': 'not_found' };

async function validityOf(address: string, sources: RpkiSources): Promise<RpkiRoute> {
  try {
    const originUrl = new URL(sources.originUrl);
    originUrl.searchParams.set('resource', address);
    const origin = originOf(await json(originUrl.href, sources));
    if (!origin) return { address, asn: null, prefix: null, validity: 'not_routed' };
    const base = sources.validatorUrl.replace(/\/+$/, '');
    const answer = (await json(`${base}/api/v1/validity/AS${origin.asn}/${origin.prefix}`, sources)) as {
      validated_route?: { validity?: { state?: string } };
    };
    const state = answer?.validated_route?.validity?.state ?? '';
    return { address, ...origin, validity: STATES[state] ?? 'error' };
  } catch {
    return { address, asn: null, prefix: null, validity: 'error' };
  }
}

/** The validity of each address's route; an unreachable source makes that address `error`. */
export function validateRoutes(addresses: readonly string[], sources: RpkiSources): Promise<RpkiRoute[]> {
  return Promise.all([...new Set(addresses)].map((address) => validityOf(address, sources)));
}
