import type { Generated } from 'kysely';
import type {
  ActorKind,
  ClaimStatus,
  ControlMethod,
  OperatorAction,
  ProofOutcome,
  VerificationMethod,
  Role,
  Category,
  ScanJobStatus,
  ScanTrigger,
  DeliveryStatus,
  ExpiryKind,
  ScanChangeKind,
  FeatureFlag,
  FindingStatus,
  FindingType,
  Grade,
  PlanTier,
  SitePlatform,
  Severity,
  SuggestionStatus,
  SuggestionType,
  WebhookEvent,
  WebServer,
  ChannelKind,
  NotifyMode,
  NotificationCategory,
  NotifyDeliveryStatus,
  UnsubscribeCategory,
} from '../domain/vocabulary.ts';

// Timestamps are ISO 8601 UTC strings with milliseconds, ids are UUID strings, lists are JSON text,
// booleans are 0/1: portable across SQLite and PostgreSQL.

export interface PlansTable {
  id: string;
  name: string;
  tier: PlanTier;
  monthly_price_eur: number;
  max_sites: number;
  max_api_calls_per_month: number;
  max_scans_per_month: number;
  features: string;
  min_scan_interval_hours: Generated<number>;
  /** The most pages one scan may examine (a crawl's max_pages). */
  max_pages_per_scan: Generated<number>;
}

export interface FeatureFlagsTable {
  key: FeatureFlag;
  description: string;
  enabled: number;
  rollout_percentage: number;
}

export interface TenantsTable {
  id: string;
  name: string;
  plan_id: string;
  suspended_at: string | null;
  created_at: string;
  /** The token the tenant publishes to prove control of a site (docs/security.md); made on first use. */
  verification_token: Generated<string | null>;
}

export interface UsersTable {
  id: string;
  tenant_id: string;
  email: string;
  blocked_at: string | null;
  created_at: string;
  /** scrypt hash (infra/passwords.ts); null for users who have never set a password. */
  password_hash: Generated<string | null>;
  role: Generated<Role>;
  /** 1 for the service's own team (review queue, suspensions across tenants). */
  is_staff: Generated<number>;
}

/** A place notifications go; `target` is the encrypted JSON of its address (docs/notifications.md). */
export interface NotificationChannelsTable {
  id: string;
  tenant_id: string;
  kind: ChannelKind;
  name: string;
  target: string;
  /** What may be shown of the target: the host and the last 4 characters. */
  target_hint: string;
  enabled: Generated<number>;
  failure_count: Generated<number>;
  disabled_reason: string | null;
  created_at: string;
}

/** An e-mail channel's address; one that is no member's must be confirmed before it gets mail. */
export interface NotificationRecipientsTable {
  id: string;
  tenant_id: string;
  channel_id: string;
  address: string;
  confirmed_at: string | null;
  /** SHA-256 of the confirmation token; null once confirmed. */
  token_hash: string | null;
  created_at: string;
}

export interface NotificationRulesTable {
  id: string;
  tenant_id: string;
  name: string;
  /** JSON array of site ids; null for every site. */
  site_ids: string | null;
  min_severity: Severity;
  /** JSON arrays. */
  events: string;
  mode: NotifyMode;
  /** JSON `{ hour, weekday }` of a digest; null for immediate. */
  at: string | null;
  /** JSON `{ mode, at }`: where what the rule does not send at once goes (the "Standaard" rule's Monday digest); null: nowhere. */
  rest: string | null;
  channel_ids: string;
  roles: string;
  /** JSON `{ from, to, zone }`; null without quiet hours. */
  quiet_hours: string | null;
  critical_bypasses_quiet: Generated<number>;
  last_digest_at: string | null;
  last_rest_digest_at: string | null;
  created_at: string;
}

/** The notification outbox: one row per message and recipient. */
export interface NotificationsTable {
  id: string;
  tenant_id: string | null;
  rule_id: string | null;
  channel_id: string | null;
  /** The e-mail recipient; null for a chat channel. */
  address: string | null;
  category: NotificationCategory;
  dedupe_key: string;
  /** JSON of what to render at send time (services/notifications/message.ts); never a found value. */
  body: string;
  status: NotifyDeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_by: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface NotificationDigestItemsTable {
  id: string;
  tenant_id: string;
  rule_id: string;
  /** `digest` (the rule's own) or `rest` (what the rule left for its rest digest). */
  part: string;
  item: string;
  created_at: string;
  sent_at: string | null;
}

export interface NotificationUnsubscribesTable {
  tenant_id: string;
  address: string;
  category: UnsubscribeCategory;
  created_at: string;
}

/** A sign-up waiting for its address to be confirmed; nothing exists until then. */
export interface SignupConfirmationsTable {
  token_hash: string;
  email: string;
  password_hash: string;
  organisation: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A member's own notification settings, by address: personal quiet hours and sites muted until a date. */
export interface NotificationPreferencesTable {
  tenant_id: string;
  address: string;
  /** JSON `{ from, to, zone }` or null. */
  quiet_hours: string | null;
  /** JSON `[{ site_id, until }]`. */
  mutes: Generated<string>;
  /** JSON `{ hour, weekday?, zone }`: when this member's digests arrive; null: at the rule's hour. */
  digest_at: Generated<string | null>;
  updated_at: string;
}

export interface PasswordResetsTable {
  /** SHA-256 of the 256-bit token. */
  token_hash: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A dashboard session, stored by the SHA-256 of its id: a leaked table opens no session. */
export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** One change of a finding's status, by whom and why (the dashboard's audit trail). */
export interface FindingStatusChangesTable {
  id: string;
  tenant_id: string;
  finding_id: string;
  status: FindingStatus;
  reason: string | null;
  actor_kind: ActorKind;
  actor_id: string;
  actor_label: string;
  changed_at: string;
  /** The scan that made the change; null when a person or the platform did. */
  scan_id: string | null;
}

/** A one-time link to join a tenant with a role; stored by the SHA-256 of its token. */
export interface InvitesTable {
  token_hash: string;
  tenant_id: string;
  email: string;
  role: Role;
  invited_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}

export interface ApiKeysTable {
  id: string;
  tenant_id: string;
  user_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  permissions: string;
  rate_limit: number;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface SitesTable {
  id: string;
  tenant_id: string;
  name: string;
  url: string;
  detected_platform: SitePlatform | null;
  created_at: string;
  /** Hours between scheduled scans; null when the schedule is off. */
  scan_interval_hours: Generated<number | null>;
  next_scan_at: Generated<string | null>;
  /** Consecutive failed scheduled scans, for back-off and the scan_failed event. */
  scan_failures: Generated<number>;
  /** The mail test's domain: null for the registrable domain of the site's host, '' when the test is off. */
  mail_domain: Generated<string | null>;
  /** Pages a scan examines when the request does not say (1: the start page alone). */
  max_pages: Generated<number>;
  /** JSON arrays of path patterns (robots.txt syntax) a crawl keeps to and leaves out. */
  include_paths: Generated<string>;
  exclude_paths: Generated<string>;
}

export interface ScansTable {
  id: string;
  tenant_id: string;
  site_id: string;
  url: string;
  score: number;
  grade: Grade;
  ssl_score: number;
  headers_score: number;
  endpoints_score: number;
  detected_platform: SitePlatform | null;
  findings_count: number;
  critical_count: number;
  high_count: number;
  medium_count: number;
  low_count: number;
  scanned_at: string;
  /** JSON array of check names whose findings are missing from this scan; '[]' by default. */
  failed_checks: Generated<string>;
  /** Null for scans stored before servers were detected, or when none was recognised. */
  detected_server: WebServer | null;
  trigger: Generated<ScanTrigger>;
  /** The site's scan before this one, which `changes` compares against; null for the first. */
  previous_scan_id: string | null;
  /** internet.nl's website test as JSON (scanner/report/internetnl.ts); null when not run. */
  internetnl: string | null;
  /** The scan's coverage as JSON (scanner/coverage.ts); null for scans stored before it was recorded. */
  coverage: string | null;
  /** internet.nl's mail test as JSON (scanner/types.ts MailRun; the SMTP part may be filled in later); null when off. */
  mail: string | null;
  /** Why the scan reached no page of the site; null when it did. */
  unreachable: string | null;
  /** 1 when intrusive tests were held back for want of proof of control. */
  passive: Generated<number>;
  /** The crawl's summary and the pages visited, as JSON (scanner/scan.ts); null for scans stored before crawling. */
  crawl: string | null;
  pages: string | null;
}

export interface FindingsTable {
  id: string;
  tenant_id: string;
  site_id: string;
  /** The latest scan that saw this finding. */
  scan_id: string;
  finding_type: FindingType;
  category: Category;
  severity: Severity;
  /** 0 for CRITICAL … 3 for LOW, for sorting. */
  severity_rank: number;
  status: FindingStatus;
  /** The catalog texts (title, description, impact, remediation, expected value, reference). */
  text_id: number;
  endpoint: string;
  actual_value: string | null;
  created_at: string;
  last_seen_at: string;
  resolved_at: string | null;
  /** JSON array of the pages where the latest scan saw a per-page finding; null for what is judged once. */
  affected_urls: Generated<string | null>;
}

export interface FindingTextsTable {
  id: Generated<number>;
  title: string;
  description: string;
  impact: string;
  remediation: string;
  expected_value: string;
  reference_url: string;
}

export interface FindingCountsTable {
  tenant_id: string;
  /** '' for the tenant-wide roll-up. */
  site_id: string;
  text_id: number;
  category: Category;
  status: FindingStatus;
  severity: Severity;
  n: number;
}

export interface ScanFindingsTable {
  scan_id: string;
  finding_id: string;
  actual_value: string | null;
  /** The severity this scan saw; null in scans stored before it was kept. */
  severity: Severity | null;
  /** Where this scan saw it (a page-level finding's first page moves); null: the finding's endpoint. */
  endpoint: Generated<string | null>;
  /** JSON array of the pages (at most 20) and their count; null for what is judged once. */
  affected_urls: Generated<string | null>;
  affected_count: Generated<number | null>;
}

/** How one scan changed one of its site's findings (docs/monitoring.md). */
export interface ScanChangesTable {
  scan_id: string;
  finding_id: string;
  kind: ScanChangeKind;
  from_severity: Severity | null;
  to_severity: Severity | null;
  /** For `escalated`: the finding this one replaced. */
  from_finding_id: string | null;
}

/** A risk accepted by a person until a date; a new row for every extension. */
export interface FindingAcceptancesTable {
  id: string;
  tenant_id: string;
  finding_id: string;
  reason: string;
  owner_id: string;
  expires_at: string;
  /** Who accepted it: an e-mail address, or the admin CLI. */
  created_by: string;
  created_at: string;
  /** When risk_acceptance_expiring went out (once). */
  notice_sent_at: string | null;
  ended_at: string | null;
}

/** A dated item one scan saw: a certificate of the chain or the security.txt's Expires. */
export interface ScanExpiriesTable {
  scan_id: string;
  tenant_id: string;
  site_id: string;
  kind: ExpiryKind;
  subject: string;
  not_after: string;
}

/** An expiry_warning already sent: one per item (site, kind, subject, end) and threshold. */
export interface ExpiryWarningsTable {
  site_id: string;
  kind: ExpiryKind;
  subject: string;
  not_after: string;
  threshold_days: number;
  sent_at: string;
}

export interface SuggestionsTable {
  id: string;
  tenant_id: string;
  /** Who submitted it: an API key, a user or the platform (domain/actor.ts). */
  submitted_by_kind: ActorKind;
  submitted_by_id: string;
  type: SuggestionType;
  title: string;
  description: string;
  diff: string | null;
  file_path: string | null;
  metadata: string | null;
  status: SuggestionStatus;
  review_notes: string | null;
  reviewed_at: string | null;
  created_at: string;
}

export interface WebhooksTable {
  id: string;
  tenant_id: string;
  url: string;
  events: string;
  secret: string;
  enabled: number;
  last_triggered_at: string | null;
  failure_count: Generated<number>;
  created_at: string;
}

/** Outbox: one row per event, written in the transaction of the change that caused it. */
export interface WebhookMessagesTable {
  /** The webhook-id header: the same on every attempt and every endpoint. */
  id: string;
  tenant_id: string;
  event_type: WebhookEvent;
  /** The exact JSON body that is signed and sent. */
  payload: string;
  created_at: string;
}

/** One row per message and subscribed webhook. */
export interface WebhookDeliveriesTable {
  id: string;
  message_id: string;
  webhook_id: string;
  /** failed: retries exhausted or webhook gone. */
  status: DeliveryStatus;
  attempts: number;
  /** Also the lease: a worker claiming the delivery moves it forward, and clears it with the attempt. */
  next_attempt_at: string;
  created_at: string;
  /** The worker holding the delivery's lease. */
  claimed_by: Generated<string | null>;
}

/** One scheduled scan of a site; workers claim it with a lease by moving run_after forward. */
export interface ScanJobsTable {
  id: string;
  tenant_id: string;
  site_id: string;
  status: ScanJobStatus;
  /** When the schedule wanted the scan. */
  due_at: string;
  /** Not before this moment: the lease of the worker holding it, or the time of a retry. */
  run_after: string;
  claimed_by: string | null;
  attempts: number;
  /** Why it was skipped or failed. */
  reason: string | null;
  scan_id: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  webhook_id: string;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** Monthly usage per tenant ("YYYY-MM" in UTC), for plan quotas that survive restarts. */
export interface UsageCountersTable {
  tenant_id: string;
  period: string;
  metric: string;
  count: number;
}

export interface ScanCountsTable {
  tenant_id: string;
  /** '' for all sites. */
  site_id: string;
  /** '' for all grades. */
  grade: Grade | '';
  /** UTC day, YYYY-MM-DD. */
  day: string;
  n: number;
}

export interface Database {
  plans: PlansTable;
  feature_flags: FeatureFlagsTable;
  tenants: TenantsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  notification_channels: NotificationChannelsTable;
  notification_recipients: NotificationRecipientsTable;
  notification_rules: NotificationRulesTable;
  notifications: NotificationsTable;
  notification_digest_items: NotificationDigestItemsTable;
  notification_unsubscribes: NotificationUnsubscribesTable;
  password_resets: PasswordResetsTable;
  notification_preferences: NotificationPreferencesTable;
  signup_confirmations: SignupConfirmationsTable;
  sites: SitesTable;
  scans: ScansTable;
  findings: FindingsTable;
  finding_texts: FindingTextsTable;
  finding_counts: FindingCountsTable;
  scan_findings: ScanFindingsTable;
  suggestions: SuggestionsTable;
  webhooks: WebhooksTable;
  webhook_messages: WebhookMessagesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  usage_counters: UsageCountersTable;
  scan_counts: ScanCountsTable;
  scan_jobs: ScanJobsTable;
  sessions: SessionsTable;
  finding_status_changes: FindingStatusChangesTable;
  scan_changes: ScanChangesTable;
  finding_acceptances: FindingAcceptancesTable;
  scan_expiries: ScanExpiriesTable;
  expiry_warnings: ExpiryWarningsTable;
  invites: InvitesTable;
  vulnerability_data: VulnerabilityDataTable;
  smtp_results: SmtpResultsTable;
  control_claims: ControlClaimsTable;
  verification_checks: VerificationChecksTable;
  operator_audit: OperatorAuditTable;
}

/** A name a tenant has shown control of, by one method; `lost` keeps when and why. */
export interface ControlClaimsTable {
  id: string;
  tenant_id: string;
  method: VerificationMethod;
  /** A host name (or IP literal); a DNS claim covers the names below it too. */
  name: string;
  /** Where a file or meta claim was shown (scheme, host, port), to check it again there; null for DNS and operators. */
  origin: string | null;
  status: ClaimStatus;
  verified_at: string;
  /** When the token was last seen in place (or an operator vouched). */
  confirmed_at: string;
  checked_at: string;
  lost_at: string | null;
  /** The last check's reason; an operator's reason for the operator method. */
  reason: string | null;
  /** An operator's claim ends then; null without an end. */
  until: string | null;
}

/** The last outcome of each method on one site, for GET /sites/{site_id}/verification. */
export interface VerificationChecksTable {
  site_id: string;
  method: ControlMethod;
  tenant_id: string;
  outcome: ProofOutcome;
  reason: string;
  checked_at: string;
}

/** What an operator did to a tenant's proof of control: who, why and when. */
export interface OperatorAuditTable {
  id: string;
  at: string;
  operator: string;
  action: OperatorAction;
  tenant_id: string;
  site_id: string | null;
  reason: string | null;
  until: string | null;
}

/** One MX host's SMTP result (scanner/types.ts SmtpHostResult as JSON), shared by every tenant. */
export interface SmtpResultsTable {
  host: string;
  result: string;
  tested_at: string;
}

export interface VulnerabilityDataTable {
  source: string;
  /** The compacted data as JSON. */
  body: string;
  /** SHA-256 of body: an instance whose copy has another digest reloads. */
  digest: string;
  records: number;
  complete: number;
  licence: string;
  origin: string;
  /** The source's ETag, sent back with If-None-Match. */
  etag: string | null;
  /** When the data was last known current at its source. */
  updated_at: string;
  /** When the daily job last asked the source. */
  checked_at: string;
}
