import type { Actor } from '../domain/actor.ts';
import type { NewSession, UserPrincipal } from '../services/accounts.ts';
import type { ServiceDeps } from '../services/deps.ts';
import type { CounterStore } from '../services/limits/counter-store.ts';

/** The dashboard's session cookie as procedures see it: the transport reads and writes the cookie. */
export interface SessionCookie {
  /** The session id the request carried, if any. */
  token: string | null;
  set: (session: NewSession) => void;
  clear: () => void;
}

/** What every procedure can use. The transport builds it per request; services get the actor explicitly. */
export interface Context extends ServiceDeps {
  /** Who is calling: an agent's key or a logged-in person; null when nobody authenticated. */
  actor: Actor | null;
  /** The logged-in person, when the caller is one (dashboard procedures). */
  user: UserPrincipal | null;
  /** The OpenAPI document of these routers, handed in by the transport that generates it. */
  openApiDocument: () => Record<string, unknown>;
  /** Short-window counters shared with the rate limits (log-in attempts). */
  counters: CounterStore;
  /** The client's address, for per-address limits. */
  clientAddress: string;
  /** The service's origin as the client addressed it ("https://scanner.example.nl"), for absolute links. */
  publicOrigin: () => string;
  session: SessionCookie;
}
