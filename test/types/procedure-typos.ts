// Compiled by `tsc -p .` in npm test and never run: each line below must fail to compile, which
// proves REST operations and MCP tools name their procedures by a key the compiler checks.
import type { McpToolDefinition } from '../../routers/mcp-tools.ts';
import type { ProcedureName } from '../../routers/rest-operations.ts';
import type { Context } from '../../routers/context.ts';
import { callProcedure } from '../../routers/procedures.ts';

declare const ctx: Context;

// @ts-expect-error a misspelled procedure
export const name: ProcedureName = 'scans.lst';
// @ts-expect-error an MCP tool cannot name a procedure the router lacks
export const tool: McpToolDefinition = { name: 'x', procedure: 'findings.search', annotations: {} };
// @ts-expect-error nor can a caller
export const call = () => callProcedure(ctx, 'site.list', {});
