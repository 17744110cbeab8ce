import type { ServerContext } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../routers/context.ts';
import { SCAN_STAGE_LABELS, SCAN_STAGES, type ScanStage } from '../../scanner/vocabulary.ts';
import type { ApiKeyPrincipal } from '../../services/auth.ts';
import type { Admission } from '../admission.ts';

/** One MCP request as the tools need it: the request's context, and the request with its key (the key's limiter counts against it). */
export interface CallSession {
  context: Context;
  request: FastifyRequest & { principal: ApiKeyPrincipal };
  /** Counts a call like one API call: the key's limit per minute and the monthly quota. */
  charge: Admission['charge'];
  /** Aborted by notifications/cancelled for this call (on any request of the same key) or when the client goes away. */
  cancel: AbortController;
}

/**
 * Calls in progress by key and JSON-RPC id. Stateless: a cancellation arrives on an HTTP request of
 * its own, so it is matched here; a key can only cancel its own calls.
 */
const running = new Map<string, AbortController>();
const callKey = (keyId: string, requestId: unknown) => `${keyId}\n${JSON.stringify(requestId)}`;

type JsonRpcMessage = { method?: unknown; id?: unknown; params?: { requestId?: unknown } };
const messagesIn = (body: unknown): JsonRpcMessage[] =>
  (Array.isArray(body) ? body : [body]).filter((m): m is JsonRpcMessage => typeof m === 'object' && m !== null);

/**
 * Cancels the calls a request's notifications/cancelled name, and registers its own tool calls
 * under one controller, aborted when the client goes away before the answer; `onClose` runs when
 * the response closes, whatever happened.
 */
export function trackCalls(keyId: string, body: unknown, reply: FastifyReply, onClose: () => void): AbortController {
  const messages = messagesIn(body);
  for (const message of messages) {
    if (message.method === 'notifications/cancelled') running.get(callKey(keyId, message.params?.requestId))?.abort();
  }
  const cancel = new AbortController();
  const calls = messages
    .filter((m) => m.method === 'tools/call' && m.id !== undefined)
    .map((m) => callKey(keyId, m.id));
  for (const key of calls) running.set(key, cancel);
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) cancel.abort();
    for (const key of calls) if (running.get(key) === cancel) running.delete(key);
    onClose();
  });
  return cancel;
}

/**
 * How a scan started by a tool call reports and stops: notifications/progress for its stages when
 * the client asked for progress (stage names only: no text of the scanned site goes into a
 * notification), and a signal that the call's cancellation aborts.
 */
export function scanControl(ctx: ServerContext, session: CallSession) {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  return {
    signal: AbortSignal.any([ctx.mcpReq.signal, session.cancel.signal]),
    onProgress: (stage: ScanStage) => {
      if (progressToken === undefined) return;
      const progress = SCAN_STAGES.indexOf(stage) + 1;
      void ctx.mcpReq
        .notify({
          method: 'notifications/progress',
          params: { progressToken, progress, total: SCAN_STAGES.length, message: SCAN_STAGE_LABELS[stage] },
        })
        .catch(() => {});
    },
  };
}
