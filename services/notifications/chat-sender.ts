import { refusalIn } from '../../scanner/errors.ts';
import { guardedGot } from '../../scanner/net/guarded-http.ts';
import { agentsFor } from '../webhook-delivery/sender.ts';
import type { ChatRequest } from './message.ts';

export const CHAT_TIMEOUT_MS = 15_000;

export interface ChatResult {
  statusCode: number | null;
  /** Seconds the platform asked to wait (429 Retry-After). */
  retryAfter: number | null;
  error: string | null;
}

/** Retry-After as seconds: a number, or an HTTP date. */
function retryAfterOf(value: string | string[] | undefined, now: number): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : null;
}

/**
 * One POST to a chat platform: https only (loopback where the address policy allows it), no
 * redirects, a 15 s bound, the connect-time address guard; answers the status and Retry-After.
 */
export async function postChat(
  url: string,
  request: ChatRequest,
  options: { allowPrivateTargets: boolean; bearer?: string; now: number },
): Promise<ChatResult> {
  try {
    const target = new URL(url);
    if (target.protocol !== 'https:') return { statusCode: null, retryAfter: null, error: 'alleen https-adressen' };
    const response = await guardedGot.post(target, {
      body: request.body,
      headers: {
        'content-type': request.contentType,
        'user-agent': 'WebsiteSecurityScanner-Notifications/1.0',
        ...(options.bearer ? { authorization: `Bearer ${options.bearer}` } : {}),
        ...request.headers,
      },
      agent: agentsFor(options.allowPrivateTargets),
      timeout: { request: CHAT_TIMEOUT_MS },
      throwHttpErrors: false,
      followRedirect: false,
    });
    return {
      statusCode: response.statusCode,
      retryAfter: retryAfterOf(response.headers['retry-after'], options.now),
      error: response.statusCode >= 300 ? `HTTP ${response.statusCode}` : null,
    };
  } catch (error) {
    const refusal = refusalIn(error);
    return {
      statusCode: null,
      retryAfter: null,
      error: refusal ? refusal.message : ((error as { code?: string }).code ?? (error as Error).message),
    };
  }
}
