/** The REST paths of docs/spec.md, written once: procedures' meta, the auth answer and detail links use them. */
export const API_PATHS = {
  auth: '/api/agent/auth',
  scans: '/api/agent/scans',
  scan: '/api/agent/scans/{scan_id}',
  scan_sarif: '/api/agent/scans/{scan_id}/sarif',
  scan_changes: '/api/agent/scans/{scan_id}/changes',
  scan_trigger: '/api/agent/scan',
  findings: '/api/agent/findings',
  finding: '/api/agent/findings/{finding_id}',
  suggestions: '/api/agent/suggestions',
  docs: '/api/agent/docs',
  config: '/api/agent/config',
  webhooks: '/api/agent/webhooks',
  sites: '/api/agent/sites',
  site: '/api/agent/sites/{site_id}',
  site_expiries: '/api/agent/sites/{site_id}/expiries',
  site_mail: '/api/agent/sites/{site_id}/mail',
  site_verification: '/api/agent/sites/{site_id}/verification',
  site_verify: '/api/agent/sites/{site_id}/verify',
  notification_channels: '/api/agent/notifications/channels',
  notification_channel: '/api/agent/notifications/channels/{channel_id}',
  notification_channel_test: '/api/agent/notifications/channels/{channel_id}/test',
  notification_rules: '/api/agent/notifications/rules',
  notification_rule: '/api/agent/notifications/rules/{rule_id}',
  notification_deliveries: '/api/agent/notifications/deliveries',
} as const;

/** The link to one scan (docs/spec.md 2.3 `detail_url`). */
export const scanDetailPath = (scanId: string) => API_PATHS.scan.replace('{scan_id}', scanId);

/**
 * The dashboard's pages (Dutch paths, like its texts): the server answers each with the app's
 * index.html, the app routes on them. `:id` stands for one path segment.
 */
export const DASHBOARD_PAGES = {
  overview: '/',
  login: '/inloggen',
  invite: '/uitnodiging',
  site: '/sites/:id',
  findings: '/bevindingen',
  finding: '/bevindingen/:id',
  keys: '/api-sleutels',
  webhooks: '/webhooks',
  suggestions: '/suggesties',
  team: '/team',
  account: '/account',
  platform: '/platform',
  notifications: '/meldingen',
  passwordReset: '/wachtwoord-herstellen',
} as const;

/** Pages the server renders itself, for links in mail: each shows a button, and only its POST changes anything. */
export const MAIL_PAGES = {
  confirmAddress: '/meldingen/bevestigen',
  unsubscribe: '/meldingen/afmelden',
  confirmAccount: '/account/bevestigen',
} as const;

/** A dashboard page of one resource: `page` with its `:id` filled in. */
export const dashboardPath = (page: typeof DASHBOARD_PAGES.site | typeof DASHBOARD_PAGES.finding, id: string) =>
  page.replace(':id', id);
