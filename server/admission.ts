import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { DB } from '../db/database.ts';
import { ERRORS, Forbidden, Invalid, TooManyRequests, Unauthenticated, type LimitWindow } from '../domain/errors.ts';
import { authenticateSession } from '../services/accounts.ts';
import { CachedKeyLookup, type ApiKeyPrincipal } from '../services/auth.ts';
import type { CounterStore } from '../services/limits/counter-store.ts';
import { UsageMeter } from '../services/limits/quotas.ts';
import { rateLimitHeaders } from '../routers/errors.ts';
import { keyWithHits } from './rate-limit-store.ts';
import { urlCarriesKey } from './log-redaction.ts';
import { sameOrigin, sessionToken } from './session-cookie.ts';

/** The key of an "Authorization: Bearer <key>" header, or null. */
function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1]! : null;
}

/** How many procedure calls a request makes: a /trpc batch ("a,b,c") counts each. */
function callsIn(url: string): number {
  if (!url.startsWith('/trpc/')) return 1;
  const query = url.indexOf('?');
  const path = url.slice('/trpc/'.length, query === -1 ? undefined : query);
  // A comma is written as such or escaped; a path with neither is one call.
  if (!path.includes(',') && !path.includes('%')) return 1;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Counted as written; tRPC rejects it anyway.
  }
  return Math.max(1, decoded.split(',').length);
}

export interface Admission {
  /** The onRequest hook: admits the request or fails it with a domain error. */
  hook: onRequestHookHandler;
  /**
   * Counts `calls` against the key's per-minute limit and the tenant's monthly quota, as an API
   * call does; throws TooManyRequests past either. Routes marked `chargePerCall` (the MCP endpoint)
   * are admitted without it and charge each call they make.
   */
  charge(
    request: FastifyRequest & { principal: ApiKeyPrincipal },
    calls?: number,
    onWindow?: (window: LimitWindow) => void,
  ): Promise<LimitWindow>;
  /** Stops the key signal and writes the pending usage (at shutdown, before the database closes). */
  close(): Promise<void>;
}

/**
 * Admission of every request, in this order: the address limit, a key in the URL (400), who is
 * calling (a protected REST route answers 401 here, before its body is parsed), the key's limit
 * per minute, the tenant's monthly quota. Keys, counters and stored usage are kept in memory where
 * they can be, so most requests need neither the database nor Redis to be admitted.
 */
const WINDOW_MS = 60_000;

type RateLimitCheck = ReturnType<FastifyInstance['createRateLimit']>;

/** A @fastify/rate-limit check as the service uses it: the window, or TooManyRequests past the limit. */
function limiterOf(check: RateLimitCheck): (request: FastifyRequest) => Promise<LimitWindow> {
  return (request) =>
    check(request).then((result) => {
      if (result.isAllowed) throw new Error('rate limit checks have no allow list here');
      const window = { limit: result.max, remaining: result.remaining, resetSeconds: Math.max(1, result.ttlInSeconds) };
      if (result.isExceeded)
        throw new TooManyRequests(
          `${ERRORS.tooManyRequests} Probeer het opnieuw over ${window.resetSeconds} seconden.`,
          window.resetSeconds,
          window,
        );
      return window;
    });
}

export function createAdmission(deps: {
  db: DB;
  counters: CounterStore;
  ipLimitPerMinute: number;
  createRateLimit: FastifyInstance['createRateLimit'];
}): Admission {
  const { db, counters } = deps;
  const keys = new CachedKeyLookup(db);
  // The tenant's monthly API-call quota: counted in memory, written to the database every second
  // and at shutdown (UsageMeter), so a GET writes nothing and the count survives restarts. With
  // Redis, each call is also added to a total there, so instances together stop at the limit.
  const usage = new UsageMeter(db, counters);

  // People use the dashboard over /trpc with a session cookie; REST stays for keys.
  const admitSession = async (request: FastifyRequest): Promise<void> => {
    const session = sessionToken(request);
    if (!session) return;
    request.user = await authenticateSession(db, session, Date.now());
    if (request.method !== 'GET' && request.method !== 'HEAD' && !sameOrigin(request))
      throw new Forbidden(ERRORS.crossOrigin);
  };

  // The per-minute windows are @fastify/rate-limit's limiters over the CounterStore (memory or Redis).
  // The key's limiter counts a request's calls in one increment (keyWithHits).
  const hitsOf = new WeakMap<FastifyRequest, number>();
  const addressLimit = limiterOf(
    deps.createRateLimit({
      timeWindow: WINDOW_MS,
      max: deps.ipLimitPerMinute,
      keyGenerator: (request) => `ip:${request.ip}`,
    }),
  );
  const keyLimit = limiterOf(
    deps.createRateLimit({
      timeWindow: WINDOW_MS,
      max: (request) => request.principal!.rateLimit,
      keyGenerator: (request) => keyWithHits(`key:${request.principal!.actor.id}`, hitsOf.get(request) ?? 1),
    }),
  );

  // `onWindow` sees the key's window before the quota is checked, so a quota refusal still shows it.
  const charge = (
    request: FastifyRequest & { principal: ApiKeyPrincipal },
    calls = 1,
    onWindow?: (window: LimitWindow) => void,
  ): Promise<LimitWindow> => {
    const principal = request.principal;
    hitsOf.set(request, calls);
    return keyLimit(request).then(async (keyWindow) => {
      onWindow?.(keyWindow);
      // The monthly quota (dashboard sessions do not count against it).
      usage.noteKeyUse(principal.actor.id);
      await usage.consume(principal.tenantId, principal.plan, 'api_calls', calls);
      return keyWindow;
    });
  };

  const admit = (request: FastifyRequest, reply: FastifyReply): Promise<void> =>
    // Every request, authenticated or not, counts against its address (guards key guessing).
    addressLimit(request).then(async (addressWindow) => {
      // The answer shows the address's window, or the key's when a key is admitted (written once).
      const showAddressWindow = () => reply.headers(rateLimitHeaders(addressWindow));
      // A key in the URL ends up in logs, proxies and browser history: refuse it, say where it goes.
      if (urlCarriesKey(request.url)) {
        showAddressWindow();
        throw new Invalid(ERRORS.keyInUrl);
      }
      const token = bearerToken(request.headers.authorization);
      const principal = token ? await keys.authenticate(token) : null;
      request.principal = principal;
      if (!principal) {
        showAddressWindow();
        if (request.routeOptions.config?.protect) throw new Unauthenticated(ERRORS.unauthorized);
        if (!token && request.url.startsWith('/trpc/')) await admitSession(request);
        return;
      }
      if (request.routeOptions.config?.chargePerCall) {
        showAddressWindow();
        return;
      }
      // The key's own limit, per key id and per procedure call: a /trpc batch of seven counts
      // seven, and one that does not fit in what is left is refused whole.
      await charge(Object.assign(request, { principal }), callsIn(request.url), (keyWindow) =>
        reply.headers(rateLimitHeaders(keyWindow)),
      );
    });

  return {
    charge,
    hook: admit,
    async close() {
      await keys.close();
      await usage.close();
    },
  };
}
