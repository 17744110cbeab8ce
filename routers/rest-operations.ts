import type { inferRouterInputs } from '@trpc/server';
import * as auth from './auth/router.ts';
import * as config from './config/router.ts';
import * as docs from './docs/router.ts';
import * as findings from './findings/router.ts';
import type { AppRouter } from './index.ts';
import type { RestOperation } from './operations.ts';
import * as scans from './scans/router.ts';
import * as sites from './sites/router.ts';
import * as suggestions from './suggestions/router.ts';
import * as webhooks from './webhooks/router.ts';
import * as notifications from './notifications/router.ts';

type RouterInputs = inferRouterInputs<AppRouter>;

/** A dotted procedure name of the router ("scans.trigger"), from tRPC's public type helpers: a misspelled one does not compile. */
export type ProcedureName = {
  [R in keyof RouterInputs]: `${R & string}.${keyof RouterInputs[R] & string}`;
}[keyof RouterInputs];

/**
 * The REST operations, in one explicit table keyed by the procedure each one's meta and schemas
 * build. A key that names no procedure does not compile; an operation paired with the wrong
 * procedure stops the server at start (openapi/document.ts compares the two).
 */
const TABLE = {
  'auth.validate': auth.validateOperation,
  'sites.list': sites.listOperation,
  'sites.get': sites.getOperation,
  'sites.update': sites.updateOperation,
  'sites.expiries': sites.expiriesOperation,
  'sites.mail': sites.mailOperation,
  'sites.verification': sites.verificationOperation,
  'sites.verify': sites.verifyOperation,
  'scans.trigger': scans.triggerOperation,
  'scans.list': scans.listOperation,
  'scans.get': scans.getOperation,
  'scans.sarif': scans.sarifOperation,
  'scans.changes': scans.changesOperation,
  'findings.list': findings.listOperation,
  'findings.get': findings.getOperation,
  'suggestions.create': suggestions.createOperation,
  'suggestions.list': suggestions.listOperation,
  'config.get': config.getOperation,
  'webhooks.create': webhooks.createOperation,
  'webhooks.list': webhooks.listOperation,
  'webhooks.delete': webhooks.deleteOperation,
  'docs.get': docs.getOperation,
  'notifications.createChannel': notifications.channelCreateOperation,
  'notifications.listChannels': notifications.channelListOperation,
  'notifications.updateChannel': notifications.channelUpdateOperation,
  'notifications.deleteChannel': notifications.channelDeleteOperation,
  'notifications.testChannel': notifications.channelTestOperation,
  'notifications.createRule': notifications.ruleCreateOperation,
  'notifications.listRules': notifications.ruleListOperation,
  'notifications.updateRule': notifications.ruleUpdateOperation,
  'notifications.deleteRule': notifications.ruleDeleteOperation,
  'notifications.deliveries': notifications.deliveryListOperation,
} satisfies Partial<Record<ProcedureName, RestOperation>>;

export interface NamedRestOperation extends RestOperation {
  name: ProcedureName;
}

export const REST_OPERATIONS: readonly NamedRestOperation[] = (
  Object.entries(TABLE) as Array<[ProcedureName, RestOperation]>
).map(([name, operation]) => ({ name, ...operation }));
