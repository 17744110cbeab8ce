import { createClient, type AppRouter } from '../../dist/client/index.js';
import type { inferRouterOutputs } from '@trpc/server';

type Outputs = inferRouterOutputs<AppRouter>;

export async function latestGrades(baseUrl: string, apiKey: string): Promise<string[]> {
  const client = createClient(baseUrl, apiKey);
  const page: Outputs['scans']['list'] = await client.scans.list.query({ limit: 5, grade: 'zwak' });
  const total: number = page.pagination.total;
  const sites = await client.sites.list.query({ platform: 'wordpress' });
  const first = sites.sites[0]?.latest_scan?.grade ?? 'geen scan';
  // @ts-expect-error limit is a number for typed clients
  await client.findings.list.query({ limit: 'abc' });
  // @ts-expect-error grades are a fixed list
  await client.scans.list.query({ grade: 'perfect' });
  return [...page.scans.map((scan) => scan.grade), first, String(total)];
}
