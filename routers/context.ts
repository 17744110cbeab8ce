import type { Actor } from '../domain/actor.ts';
import type { ServiceDeps } from '../services/deps.ts';

/** What every procedure can use. The transport builds it per request; services get the actor explicitly. */
export interface Context extends ServiceDeps {
  /** Who is calling: an agent's key today, a dashboard user next; null when nobody authenticated. */
  actor: Actor | null;
  /** The OpenAPI document of these routers, handed in by the transport that generates it. */
  openApiDocument: () => Record<string, unknown>;
}
