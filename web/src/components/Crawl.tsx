import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTRPC, type Outputs } from '../trpc.ts';
import { ErrorText } from './ErrorText.tsx';

type Scan = Outputs['scans']['get'];
type PageSource = Scan['pages'][number]['source'];
type CrawlSkip = keyof Scan['crawl']['skipped'];
type CrawlStop = NonNullable<Scan['crawl']['stopped_by']>;

const SOURCE_LABELS: Record<PageSource, string> = {
  start: 'startpagina',
  given: 'genoemd',
  previous: 'eerdere bevinding',
  sitemap: 'sitemap',
  link: 'link',
};

const SKIP_LABELS: Record<CrawlSkip, string> = {
  robots: 'uitgesloten door robots.txt',
  off_origin: 'op een andere origin',
  not_html: 'geen HTML',
  template_duplicate: "al twee pagina's van hetzelfde sjabloon",
  excluded: 'querystring, uitlog- of verwijderlink, of uitgesloten pad',
};

const STOP_LABELS: Record<CrawlStop, string> = {
  max_pages: "het maximum aantal pagina's is bereikt",
  bytes: 'de 8 MiB HTML van de scan is op',
  time: 'de tijdslimiet van de crawl is bereikt',
  deadline: 'de tijd van de scan is op',
};

/** The pages the latest scan examined, and why it left the others. */
export function CrawledPages({ scan }: { scan: Pick<Scan, 'crawl' | 'pages'> }) {
  const titleId = useId();
  const { crawl, pages } = scan;
  const skipped = (Object.keys(SKIP_LABELS) as CrawlSkip[]).filter((cause) => crawl.skipped[cause] > 0);
  return (
    <section aria-labelledby={titleId} className="card">
      <h2 id={titleId}>Onderzochte pagina's</h2>
      <p className="small">
        {crawl.visited} van hoogstens {crawl.max_pages} {crawl.max_pages === 1 ? 'pagina' : "pagina's"}
        {crawl.stopped_by && crawl.max_pages > 1 ? `; gestopt omdat ${STOP_LABELS[crawl.stopped_by]}` : ''}.
        {crawl.limited_by === 'unverified' &&
          ' Het eigendom van de site is niet aangetoond: alleen de startpagina is onderzocht.'}
        {crawl.limited_by === 'plan' && " Het abonnement staat niet meer pagina's per scan toe."}
      </p>
      <ul className="plain small">
        {pages.map((page) => (
          <li key={page.url}>
            {page.url}{' '}
            <span className="muted">
              ({SOURCE_LABELS[page.source]}, {page.status ?? 'geen antwoord'}
              {page.robots === 'disallowed' ? ', robots.txt sluit haar uit' : ''})
            </span>
          </li>
        ))}
      </ul>
      {skipped.length > 0 && (
        <>
          <h3>Overgeslagen</h3>
          <ul className="plain small">
            {skipped.map((cause) => (
              <li key={cause}>
                {crawl.skipped[cause]} {SKIP_LABELS[cause]}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

const listOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter(Boolean);

/** Pages per scan and the paths a crawl keeps to or leaves out. */
export function CrawlSettings({
  siteId,
  site,
}: {
  siteId: string;
  site: Pick<Outputs['sites']['get'], 'max_pages' | 'include_paths' | 'exclude_paths'>;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [maxPages, setMaxPages] = useState(String(site.max_pages));
  const [include, setInclude] = useState(site.include_paths.join('\n'));
  const [exclude, setExclude] = useState(site.exclude_paths.join('\n'));
  useEffect(() => {
    setMaxPages(String(site.max_pages));
    setInclude(site.include_paths.join('\n'));
    setExclude(site.exclude_paths.join('\n'));
  }, [site.max_pages, site.include_paths, site.exclude_paths]);
  const save = useMutation(
    trpc.sites.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.sites.get.queryKey({ site_id: siteId }) }),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      site_id: siteId,
      max_pages: Number(maxPages),
      include_paths: listOf(include),
      exclude_paths: listOf(exclude),
    });
  };
  return (
    <form onSubmit={submit} aria-label="Crawlinstellingen">
      <label htmlFor="max-pages">Pagina's per scan</label>
      <input
        id="max-pages"
        type="number"
        min={1}
        max={25}
        value={maxPages}
        onChange={(e) => setMaxPages(e.target.value)}
      />
      <label htmlFor="include-paths">Alleen deze paden (een per regel, leeg: de hele site)</label>
      <textarea id="include-paths" value={include} onChange={(e) => setInclude(e.target.value)} rows={2} />
      <label htmlFor="exclude-paths">Deze paden overslaan</label>
      <textarea id="exclude-paths" value={exclude} onChange={(e) => setExclude(e.target.value)} rows={2} />
      <button type="submit" className="secondary" disabled={save.isPending}>
        Crawlinstellingen opslaan
      </button>
      {save.isSuccess && <span role="status">Crawlinstellingen opgeslagen.</span>}
      <ErrorText error={save.error} />
    </form>
  );
}
