import http from 'node:http';
import https from 'node:https';
import got from 'got';
import { assertLiteralHostAllowed, guardedLookup, type AddressPolicy } from './address-policy.ts';

export interface GuardedAgents {
  http: http.Agent;
  https: https.Agent;
}

const policies = new WeakMap<http.Agent, AddressPolicy>();

/**
 * Connection agents whose sockets resolve names through the address guard, so a refused address is
 * never connected to, also after a redirect or a DNS change between look-ups.
 */
export function guardedAgents(
  policy: AddressPolicy,
  options: { keepAlive: boolean; maxSockets?: number },
): GuardedAgents {
  const lookup = guardedLookup(policy);
  const agents = { http: new http.Agent({ ...options, lookup }), https: new https.Agent({ ...options, lookup }) };
  policies.set(agents.http, policy);
  policies.set(agents.https, policy);
  return agents;
}

/**
 * The one HTTP client for addresses users choose (scanned sites, webhook receivers). Every request
 * must carry guardedAgents: a request without them fails before connecting, and an IP literal
 * (which skips the look-up) is checked here. No redirects, no retries, every status is an answer.
 */
export const guardedGot = got.extend({
  followRedirect: false,
  throwHttpErrors: false,
  retry: { limit: 0 },
  hooks: {
    beforeRequest: [
      (options) => {
        const url = new URL(String(options.url));
        const agents = options.agent;
        const agent = url.protocol === 'https:' ? agents.https : agents.http;
        const policy = agent instanceof http.Agent ? policies.get(agent) : undefined;
        if (!policy) throw new Error('request without guarded agents refused');
        assertLiteralHostAllowed(url.hostname, policy);
      },
    ],
  },
});
