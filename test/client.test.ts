import { describe, expect, it } from 'vitest';
import { createClient } from '../client/index.ts';
import { apiWithTenant } from './support/api.ts';

const running = apiWithTenant();

describe('the TypeScript client', () => {
  it('calls the API with createClient(baseUrl, apiKey)', async () => {
    const { api, tenant } = running;
    const client = createClient(api.url, tenant.key);
    const [sites, scans] = await Promise.all([client.sites.list.query(), client.scans.list.query({ limit: 5 })]);
    expect(sites.sites.map((site) => site.id)).toEqual([tenant.siteId]);
    expect(scans.pagination).toEqual({ total: 0, limit: 5, offset: 0, has_more: false });
    await expect(createClient(api.url, 'sak_ongeldig').config.get.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
  });
});
