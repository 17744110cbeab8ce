// Single source of truth for the API's enumerations (schemas, docs, config endpoint, CLI, database
// column types). The scanner's own lists live in scanner/vocabulary.ts and are re-exported here.
export {
  CONTROL_METHODS,
  PROOF_OUTCOMES,
  TEST_REACHES,
  CATEGORIES,
  CATEGORY_SCORES,
  EXPIRY_KINDS,
  GRADES,
  INTERNETNL_CATEGORY_LABELS,
  MAIL_CATEGORY_LABELS,
  SITE_PLATFORMS,
  SEVERITIES,
  VULNDATA_SOURCES,
  WEB_SERVERS,
} from '../scanner/vocabulary.ts';
export type { ControlMethod, ProofOutcome, TestReach } from '../scanner/vocabulary.ts';
export type { Category, ExpiryKind, Grade, SitePlatform, Severity, WebServer } from '../scanner/vocabulary.ts';
export type { FindingType } from '../scanner/catalog/index.ts';
import { CONTROL_METHODS, type Severity } from '../scanner/vocabulary.ts';

/** The lowercase key of each severity in counts and summaries (docs/spec.md 2.3 `counts`, 4.4 `summary`). */
export const SEVERITY_COUNT_KEYS = {
  CRITICAL: 'critical',
  HIGH: 'high',
  MEDIUM: 'medium',
  LOW: 'low',
} as const satisfies { [S in Severity]: Lowercase<S> };
export type SeverityCounts = { [S in Severity as Lowercase<S>]: number };

/** Adds up numbers per severity; severities without any count 0. */
export function severityCounts(entries: Iterable<readonly [Severity, number]>): SeverityCounts {
  const counts: SeverityCounts = { critical: 0, high: 0, medium: 0, low: 0 };
  for (const [severity, n] of entries) counts[SEVERITY_COUNT_KEYS[severity]] += n;
  return counts;
}

export const PERMISSIONS = [
  'read_scans',
  'write_scans',
  'read_findings',
  'suggest_fixes',
  'read_config',
  'write_config',
  'read_docs',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const FINDING_STATUSES = ['OPEN', 'IN_PROGRESS', 'RESOLVED', 'ACCEPTED_RISK'] as const;
export type FindingStatus = (typeof FINDING_STATUSES)[number];

export const SUGGESTION_TYPES = ['code_fix', 'config_change', 'security_improvement'] as const;
export type SuggestionType = (typeof SUGGESTION_TYPES)[number];

export const SUGGESTION_STATUSES = ['pending', 'approved', 'rejected', 'applied'] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];
/** Statuses a reviewer can set. */
export const REVIEW_STATUSES = ['approved', 'rejected', 'applied'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const WEBHOOK_EVENTS = [
  'scan_completed',
  'finding_new',
  'finding_resolved',
  'suggestion_reviewed',
  'scan_failed',
  // Monitoring over time (docs/monitoring.md): sent only to webhooks that name them.
  'finding_severity_changed',
  'risk_acceptance_expiring',
  'risk_acceptance_expired',
  'expiry_warning',
  // Proof of control (docs/security.md): a site's intrusive tests start or stop.
  'site_verified',
  'site_verification_lost',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** How a scan changed one of its site's findings' status or severity (docs/monitoring.md). */
const STATUS_CHANGE_KINDS = ['new', 'regressed', 'resolved', 'severity_changed', 'escalated'] as const;
/**
 * What a scan's `changes` list: the status changes, and `unverified`, the open findings it could
 * not re-check (they keep their status; docs/monitoring.md "Coverage").
 */
export const SCAN_CHANGE_KINDS = [...STATUS_CHANGE_KINDS, 'unverified'] as const;
export type ScanChangeKind = (typeof SCAN_CHANGE_KINDS)[number];
export type ChangeCounts = Record<ScanChangeKind, number>;

/** Adds up changes per kind; kinds without any count 0 (scan_completed's `changes`, the timeline). */
export function changeCounts(entries: Iterable<readonly [ScanChangeKind, number]>): ChangeCounts {
  const counts = Object.fromEntries(SCAN_CHANGE_KINDS.map((kind) => [kind, 0])) as ChangeCounts;
  for (const [kind, n] of entries) counts[kind] += n;
  return counts;
}

/**
 * Every `data.change.kind` a finding event can carry: a scan's kinds, a person resolving it
 * (`manual`, finding_resolved) and an acceptance that ran out (`acceptance_expired`, finding_new).
 */
export const FINDING_EVENT_CHANGE_KINDS = [...STATUS_CHANGE_KINDS, 'manual', 'acceptance_expired'] as const;
export type FindingEventChangeKind = (typeof FINDING_EVENT_CHANGE_KINDS)[number];

/** Days before an end at which expiry_warning goes out, once each per item; 0 is the end itself. */
export const EXPIRY_WARNING_DAYS = [60, 30, 14, 7, 0] as const;

/** Bounds of an accepted risk (docs/monitoring.md). */
export const RISK_ACCEPTANCE = { minReasonLength: 10, maxDays: 365 } as const;

/** What started a scan: an agent's API call, the site's schedule, the dashboard or the scan CLI. */
export const SCAN_TRIGGERS = ['api', 'schedule', 'dashboard', 'cli'] as const;
export type ScanTrigger = (typeof SCAN_TRIGGERS)[number];

/** A scheduled scan job: waiting or running (pending), or how it ended. */
export const SCAN_JOB_STATUSES = ['pending', 'completed', 'skipped', 'failed'] as const;
export type ScanJobStatus = (typeof SCAN_JOB_STATUSES)[number];

/** Bounds of a site's scan interval in hours (docs/spec.md: off, or every 1 to 168 hours). */
export const SCAN_INTERVAL_HOURS = { min: 1, max: 168 } as const;

/** Who a service call acts for (domain/actor.ts). */
export const ACTOR_KINDS = ['api_key', 'user', 'system'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** State of one webhook message towards one receiver. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A person's role in their tenant; each grants the permissions of ROLE_PERMISSIONS. */
export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export const PLAN_TIERS = ['free', 'pro', 'enterprise'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

/** Feature flags; each gates real behaviour (see README). */
export const FEATURE_FLAGS = ['exposure_probes', 'suggestions', 'webhooks'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

export const DEFAULT_RATE_LIMIT = 100;
export const API_VERSION = '1.0';

/**
 * What each role may do, in the API's permission words: members read and scan; admins also manage
 * keys, webhooks, sites, schedules and finding status (write_config); owners also manage the team.
 */
export const ROLE_PERMISSIONS = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  member: ['read_scans', 'write_scans', 'read_findings', 'suggest_fixes', 'read_config', 'read_docs'],
} as const satisfies Record<Role, readonly Permission[]>;

/** How a claim was made: a tenant's proof (dns, file, meta) or an operator's word (admin CLI, audited). */
export const VERIFICATION_METHODS = [...CONTROL_METHODS, 'operator'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/** A site's proof of control: shown, never shown, or shown and then lost (removed, or not re-checkable for 7 days). */
export const VERIFICATION_STATUSES = ['verified', 'unverified', 'lost'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** A stored claim: in force, or lost with the reason. */
export const CLAIM_STATUSES = ['verified', 'lost'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** What an operator did to a tenant's proof of control, in the audit trail. */
export const OPERATOR_ACTIONS = ['site_verify', 'site_unverify', 'token_rotate'] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

/** How long a claim stands between checks, and how long it survives checks that get no answer. */
export const CLAIM_TIMES = { recheckAfterMs: 24 * 3600_000, unknownForMs: 7 * 24 * 3600_000 } as const;

/** Where a notification goes (docs/notifications.md). */
export const CHANNEL_KINDS = [
  'email',
  'slack',
  'teams',
  'discord',
  'mattermost',
  'google_chat',
  'ntfy',
  'telegram',
] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** The changes a notification rule can count. */
export const NOTIFY_EVENTS = [
  'new',
  'regressed',
  'severity_up',
  'escalated',
  'resolved',
  'scan_failed',
  'expiry_warning',
  'risk_acceptance_expiring',
  'risk_acceptance_expired',
] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

/** When a rule sends: at once, or gathered into a digest at a chosen hour. */
export const NOTIFY_MODES = ['immediate', 'daily', 'weekly'] as const;
export type NotifyMode = (typeof NOTIFY_MODES)[number];

/** A notification delivery's state; `suppressed`: planned but not to be sent (an unconfirmed or unsubscribed address). */
export const NOTIFY_DELIVERY_STATUSES = ['pending', 'sent', 'failed', 'suppressed'] as const;
export type NotifyDeliveryStatus = (typeof NOTIFY_DELIVERY_STATUSES)[number];

/** What a recipient can unsubscribe from; account mail has no unsubscribe. */
export const UNSUBSCRIBE_CATEGORIES = ['alerts', 'digest'] as const;
export type UnsubscribeCategory = (typeof UNSUBSCRIBE_CATEGORIES)[number];

/** What a notification carries: an alert, a digest, a channel test, or account mail (confirmations, resets, invites). */
export const NOTIFICATION_CATEGORIES = ['alerts', 'digest', 'test', 'account'] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];
