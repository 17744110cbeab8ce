import { openApiDocument } from '../../openapi/document.ts';
import { createSite } from '../../services/admin.ts';
import { startApi, seedTenant, type TestApi } from '../support/api.ts';
import type { FuzzTarget } from './fuzzer.ts';

/**
 * A running service for the fuzzer: limits high enough that requests reach the procedures, two
 * tenants, and real ids (sites whose URL refuses connections at once, a webhook) to aim at.
 */
export async function fuzzTarget(
  env: Record<string, string> = {},
): Promise<{ api: TestApi; target: FuzzTarget; document: Awaited<ReturnType<typeof openApiDocument>> }> {
  const api = await startApi({
    MAX_CONCURRENT_SCANS: '64',
    MAX_CONCURRENT_SCANS_PER_TENANT: '64',
    SCANNER_REQUEST_TIMEOUT: '1s',
    SCANNER_DEADLINE: '3s',
    ...env,
  });
  const own = await seedTenant(api.db, 'http://127.0.0.1:9/', { plan: 'enterprise', rateLimit: 100_000 });
  const other = await seedTenant(api.db, 'http://127.0.0.1:9/', { plan: 'enterprise', rateLimit: 100_000 });
  const extraSite = await createSite(
    { db: api.db, config: api.config },
    {
      tenant_id: own.tenantId,
      name: 'IPv6',
      url: 'https://[::1]:9/',
    },
  );
  const webhook = await api.call('POST', '/api/agent/webhooks', {
    key: own.key,
    body: { url: 'https://hooks.example.nl/in', events: ['scan_completed'] },
  });
  return {
    api,
    target: {
      baseUrl: api.url,
      keys: { own: own.key, other: other.key },
      ids: [own.siteId, extraSite.id, other.siteId, webhook.body.webhook.id, '00000000-0000-0000-0000-000000000000'],
    },
    document: await openApiDocument(),
  };
}
