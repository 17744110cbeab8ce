import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { dashboardPath, DASHBOARD_PAGES } from '../../../domain/endpoints.ts';
import { Sparkline } from '../components/Charts.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { Grade } from '../components/Grade.tsx';
import { useTRPC, type Outputs } from '../trpc.ts';

type Site = Outputs['sites']['list']['sites'][number];

/** One row: the site's latest scan and its last 30 scores, oldest first. */
function SiteRow({ site }: { site: Site }) {
  const trpc = useTRPC();
  const scans = useQuery(trpc.scans.list.queryOptions({ site_id: site.id, limit: 30 }));
  const latest = scans.data?.scans[0];
  return (
    <tr>
      <th scope="row">
        <Link href={dashboardPath(DASHBOARD_PAGES.site, site.id)}>{site.name}</Link>
        <div className="muted small">{site.url}</div>
      </th>
      <td>
        {latest ? <Grade grade={latest.grade} score={latest.score} /> : <span className="muted">nog niet gescand</span>}
      </td>
      <td>{latest?.critical_count ?? '–'}</td>
      <td>{latest?.high_count ?? '–'}</td>
      <td>
        <Sparkline points={[...(scans.data?.scans ?? [])].reverse()} />
      </td>
    </tr>
  );
}

export function OverviewPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const sites = useQuery(trpc.sites.list.queryOptions({ limit: 100 }));
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const create = useMutation(
    trpc.sites.create.mutationOptions({
      onSuccess: async (site) => {
        await queryClient.invalidateQueries({ queryKey: trpc.sites.list.queryKey() });
        navigate(dashboardPath(DASHBOARD_PAGES.site, site.id));
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, url });
  };
  return (
    <>
      <h1>Overzicht</h1>
      <section aria-labelledby="sites-title">
        <h2 id="sites-title">Sites</h2>
        <ErrorText error={sites.error} />
        {sites.data && sites.data.sites.length === 0 && <p>Nog geen sites. Voeg hieronder uw eerste site toe.</p>}
        {sites.data && sites.data.sites.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">Site</th>
                <th scope="col">Laatste cijfer</th>
                <th scope="col">Kritiek</th>
                <th scope="col">Hoog</th>
                <th scope="col">Trend</th>
              </tr>
            </thead>
            <tbody>
              {sites.data.sites.map((site) => (
                <SiteRow key={site.id} site={site} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="add-site-title" className="card">
        <h2 id="add-site-title">Nieuwe site</h2>
        <form onSubmit={submit}>
          <label htmlFor="site-name">Naam</label>
          <input id="site-name" required value={name} onChange={(e) => setName(e.target.value)} />
          <label htmlFor="site-url">URL</label>
          <input
            id="site-url"
            type="url"
            required
            placeholder="https://www.voorbeeld.nl/"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
          <button type="submit" disabled={create.isPending}>
            Site toevoegen
          </button>
          <ErrorText error={create.error} />
        </form>
      </section>
    </>
  );
}
