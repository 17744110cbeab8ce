import { ERRORS, Forbidden } from './errors.ts';
import { PERMISSIONS, type ActorKind, type Permission } from './vocabulary.ts';

/**
 * Who a service acts for: the tenant every query is scoped to, the acting key, user or system job,
 * and what it may do. Services take it explicitly; they never see a request, a session or a key.
 */
export interface Actor {
  tenantId: string;
  actor: { kind: ActorKind; id: string };
  permissions: readonly Permission[];
}

/** Throws Forbidden unless the actor holds the permission. */
export function assertPermission(actor: Actor, permission: Permission): void {
  if (actor.permissions.includes(permission)) return;
  throw new Forbidden(actor.actor.kind === 'user' ? ERRORS.forbiddenForUser(permission) : ERRORS.forbidden(permission));
}

/** The platform itself (scheduled scans, maintenance) acting within one tenant. */
export function systemActor(tenantId: string, job: string): Actor {
  return { tenantId, actor: { kind: 'system', id: job }, permissions: PERMISSIONS };
}
