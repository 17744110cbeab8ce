import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { ProcedureName } from './rest-operations.ts';

export interface McpToolDefinition {
  /** The tool's name as agents call it. */
  name: string;
  procedure: ProcedureName;
  annotations: ToolAnnotations;
  /** A list: the answer also says `total` and `next_offset`. */
  list?: true;
  /** The answer's field with a scan id: the result then links to that scan's report and SARIF resources. */
  scanLinks?: 'scan_id' | 'id';
}

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/**
 * The MCP tools: each is a procedure the REST API serves, with its zod schemas, permission and
 * description (server/mcp/tools.ts builds the tool from them). Making another procedure a tool is one line.
 */
export const MCP_TOOLS: readonly McpToolDefinition[] = [
  { name: 'list_sites', procedure: 'sites.list', annotations: READ, list: true },
  { name: 'get_site', procedure: 'sites.get', annotations: READ },
  // A scan reaches out to the site: the open world.
  {
    name: 'scan_site',
    procedure: 'scans.trigger',
    annotations: { ...WRITE, openWorldHint: true },
    scanLinks: 'scan_id',
  },
  { name: 'list_scans', procedure: 'scans.list', annotations: READ, list: true },
  { name: 'get_scan', procedure: 'scans.get', annotations: READ, scanLinks: 'id' },
  { name: 'get_scan_sarif', procedure: 'scans.sarif', annotations: READ },
  { name: 'get_scan_changes', procedure: 'scans.changes', annotations: READ },
  { name: 'list_expiries', procedure: 'sites.expiries', annotations: READ },
  { name: 'get_site_mail', procedure: 'sites.mail', annotations: READ, scanLinks: 'scan_id' },
  // A coding agent commits the file or tag, deploys, then verifies: the check reaches the site.
  { name: 'get_site_verification', procedure: 'sites.verification', annotations: READ },
  {
    name: 'verify_site',
    procedure: 'sites.verify',
    annotations: { ...WRITE, idempotentHint: true, openWorldHint: true },
  },
  { name: 'search_findings', procedure: 'findings.list', annotations: READ, list: true },
  { name: 'get_finding', procedure: 'findings.get', annotations: READ },
  { name: 'submit_suggestion', procedure: 'suggestions.create', annotations: WRITE },
  { name: 'list_suggestions', procedure: 'suggestions.list', annotations: READ, list: true },
  { name: 'get_config', procedure: 'config.get', annotations: READ },
  { name: 'list_webhooks', procedure: 'webhooks.list', annotations: READ, list: true },
  // Webhook deliveries go to the receiver's URL, outside this service.
  { name: 'create_webhook', procedure: 'webhooks.create', annotations: { ...WRITE, openWorldHint: true } },
  {
    name: 'delete_webhook',
    procedure: 'webhooks.delete',
    annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
  },
];
