import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../routers/context.ts';
import { httpRequestDuration } from '../../services/metrics.ts';
import { SERVICE_NAME, SERVICE_VERSION } from '../../services/service-configuration.ts';
import type { Admission } from '../admission.ts';
import { httpErrorAnswer } from '../error-answers.ts';
import { trackCalls, type CallSession } from './calls.ts';
import { registerScanResources } from './resources.ts';
import { registerTools } from './tools.ts';

// The MCP server (Streamable HTTP at /mcp), built on the official SDK's v2 packages: stateless, the
// 2026-07-28 protocol and the 2025 clients' initialize handshake alike (createMcpHandler's
// stateless legacy leg), so any instance answers any request. Its tools are procedures
// (routers/mcp-tools.ts): the same zod schemas, permission checks, tenant scoping and limits as
// REST, and a refused call is a tool result with isError and the Dutch error text.

export const MCP_PATH = '/mcp';

function serverFor(session: CallSession, log: FastifyRequest['log']): McpServer {
  const server = new McpServer(
    { name: SERVICE_NAME, version: SERVICE_VERSION },
    {
      instructions:
        'Beveiligingsscans van websites: sites, scans, bevindingen, verbetervoorstellen en webhooks van dit account.',
    },
  );
  registerTools(server, session, log);
  registerScanResources(server, session, log);
  return server;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * DNS rebinding: a page that rebinds its own name to this server controls both Host and Origin, so
 * comparing them with each other proves nothing. Both must name the configured public origin
 * (PUBLIC_URL) or a loopback name.
 */
export function hostAllowed(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const allowed = new Set(LOOPBACK_NAMES);
  if (publicUrl) allowed.add(new URL(publicUrl).hostname.toLowerCase());
  const hostname = (value: string) => new URL(`http://${value}`).hostname.toLowerCase();
  try {
    if (!allowed.has(hostname(request.host))) return false;
    const origin = request.headers.origin;
    return origin === undefined || allowed.has(new URL(origin).hostname.toLowerCase());
  } catch {
    return false;
  }
}

export function registerMcp(
  app: FastifyInstance,
  deps: {
    contextOf: (request: FastifyRequest, reply: FastifyReply) => Context;
    admission: Admission;
    publicUrl: string | undefined;
  },
): void {
  const handler = createMcpHandler(
    ({ requestInfo, authInfo }) => {
      const session = authInfo?.extra?.session as CallSession | undefined;
      if (!session) throw new Error(`MCP request without a session (${requestInfo?.url ?? 'unknown'})`);
      return serverFor(session, app.log);
    },
    { legacy: 'stateless', keepAliveMs: 0 },
  );
  const serve = toNodeHandler(handler, { onerror: (error) => app.log.error({ err: error }, 'MCP request failed') });
  app.addHook('onClose', async () => handler.close());

  app.register(async (scope) => {
    // Refusals of admission (401, 429) in the API's shape; a 401 names the scheme (RFC 6750), as MCP clients expect.
    scope.setErrorHandler((error, request, reply) => {
      const answer = httpErrorAnswer(error);
      if (answer.internal) request.log.error({ err: answer.cause }, 'MCP request failed');
      // RFC 6750: a key that was sent but is wrong or revoked is invalid_token; no key at all has no error code.
      if (answer.status === 401)
        reply.header(
          'www-authenticate',
          request.headers.authorization ? 'Bearer realm="mcp", error="invalid_token"' : 'Bearer realm="mcp"',
        );
      return reply.code(answer.status).headers(answer.headers).send({ error: answer.message });
    });
    scope.route({
      method: ['GET', 'POST', 'DELETE'],
      url: MCP_PATH,
      config: { protect: true, chargePerCall: true },
      handler: async (request, reply) => {
        if (!hostAllowed(request, deps.publicUrl))
          return reply
            .code(403)
            .send({ error: 'Deze Host of Origin mag de MCP-server niet gebruiken (zie PUBLIC_URL).' });
        const principal = request.principal!;
        // A hijacked reply skips Fastify's onResponse hook: counted when it closes, with the same labels.
        const cancel = trackCalls(principal.actor.id, request.body, reply, () =>
          httpRequestDuration.observe(
            { method: request.method, route: MCP_PATH, status: String(reply.raw.statusCode) },
            reply.elapsedTime / 1000,
          ),
        );
        const session: CallSession = {
          context: deps.contextOf(request, reply),
          request: Object.assign(request, { principal }),
          charge: deps.admission.charge,
          cancel,
        };
        // The SDK writes the answer to the raw response: carry over what onRequest set (request id,
        // security headers) before Fastify lets go of it.
        for (const [name, value] of Object.entries(reply.getHeaders()))
          if (value !== undefined) reply.raw.setHeader(name, value);
        reply.hijack();
        const raw = Object.assign(request.raw, {
          auth: { token: 'api-key', clientId: principal.actor.id, scopes: [], extra: { session } },
        });
        await serve(raw, reply.raw, request.body);
      },
    });
  });
}
