import type { CallToolResult, McpServer, ServerContext, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorAnswer } from '../../routers/errors.ts';
import { MCP_TOOLS, type McpToolDefinition } from '../../routers/mcp-tools.ts';
import { PROCEDURES_BY_NAME, type OpenApiProcedure } from '../../routers/procedures.ts';
import { scanControl, type CallSession } from './calls.ts';
import { scanLinks } from './resources.ts';
import { textBlocks, toolError } from './result-text.ts';

/**
 * The SDK validates tool input itself, in English; the procedure validates it again with the API's
 * Dutch messages. So the schema the SDK sees describes the input (tools/list) and lets every value
 * through to the procedure.
 */
function describedOnly(schema: z.ZodType): StandardSchemaWithJSON<unknown, unknown> {
  return {
    '~standard': {
      version: 1,
      vendor: 'website-security-scanner',
      validate: (value: unknown) => ({ value }),
      jsonSchema: {
        input: ({ target }) =>
          z.toJSONSchema(schema, { target: target as 'draft-2020-12', io: 'input' }) as Record<string, unknown>,
        output: ({ target }) =>
          z.toJSONSchema(schema, { target: target as 'draft-2020-12', io: 'output' }) as Record<string, unknown>,
      },
    },
  };
}

const isObjectSchema = (schema: z.ZodType): boolean => schema instanceof z.ZodObject;

/** structuredContent is always an object: a list answer is wrapped as { items }. */
const LIST_WRAPPER = 'items';

interface BuiltTool {
  definition: McpToolDefinition;
  procedure: OpenApiProcedure;
  description: string;
  input: StandardSchemaWithJSON<unknown, unknown>;
  output: z.ZodType | undefined;
  wrapsList: boolean;
}

/** Where a list answer stands: every list tool says how many there are and where the next page starts. */
const LIST_POSITION = {
  total: z.number().int().min(0).meta({ description: 'Aantal resultaten in totaal' }),
  next_offset: z
    .number()
    .int()
    .min(0)
    .nullable()
    .meta({ description: 'offset voor de volgende pagina; null als dit de laatste is' }),
};

function buildTool(definition: McpToolDefinition): BuiltTool {
  const procedure = PROCEDURES_BY_NAME.get(definition.procedure);
  if (!procedure) throw new Error(`MCP tool ${definition.name}: ${definition.procedure} is not a REST operation`);
  const { summary, description } = procedure.meta.openapi;
  const wrapsList = !isObjectSchema(procedure.output);
  const output = wrapsList ? z.object({ [LIST_WRAPPER]: procedure.output }) : procedure.output;
  return {
    definition,
    procedure,
    description: [
      summary,
      description,
      procedure.meta.permission ? `Vereist de permissie ${procedure.meta.permission}.` : '',
    ]
      .filter(Boolean)
      .join(' '),
    input: describedOnly(procedure.input),
    output: definition.list && output instanceof z.ZodObject ? output.extend(LIST_POSITION) : output,
    wrapsList,
  };
}

const TOOLS: readonly BuiltTool[] = MCP_TOOLS.map(buildTool);

/** total and next_offset from a list answer's pagination, or from its one array for a list without pages. */
function listPosition(result: Record<string, unknown>): { total: number; next_offset: number | null } {
  const pagination = result.pagination as
    | { total: number; limit: number; offset: number; has_more: boolean }
    | undefined;
  if (pagination)
    return { total: pagination.total, next_offset: pagination.has_more ? pagination.offset + pagination.limit : null };
  const items = Object.values(result).find(Array.isArray) ?? [];
  return { total: items.length, next_offset: null };
}

/** The tools of routers/mcp-tools.ts on one request's server: each call runs its procedure as REST would. */
export function registerTools(server: McpServer, session: CallSession, log: FastifyRequest['log']): void {
  for (const tool of TOOLS) {
    server.registerTool(
      tool.definition.name,
      {
        title: tool.procedure.meta.openapi.summary,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: tool.definition.annotations,
      },
      async (input: unknown, ctx: ServerContext): Promise<CallToolResult> => {
        try {
          // Each call counts like one API call: the key's limit per minute and the monthly quota.
          await session.charge(session.request, 1);
          const data = await tool.procedure.call(
            { ...session.context, scanControl: scanControl(ctx, session) },
            input ?? {},
          );
          const answer = (tool.wrapsList ? { [LIST_WRAPPER]: data } : data) as Record<string, unknown>;
          const structured = tool.definition.list ? { ...answer, ...listPosition(answer) } : answer;
          const scanId = tool.definition.scanLinks ? structured[tool.definition.scanLinks] : undefined;
          return {
            content: [...textBlocks(structured), ...(typeof scanId === 'string' ? scanLinks(scanId) : [])],
            structuredContent: structured,
          };
        } catch (error) {
          const answer = errorAnswer(error);
          if (answer.internal) log.error({ err: answer.cause, tool: tool.definition.name }, 'MCP tool failed');
          return toolError(answer.message);
        }
      },
    );
  }
}
