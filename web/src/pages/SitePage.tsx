import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { CATEGORY_SCORES, SEVERITIES } from '../../../domain/vocabulary.ts';
import { ScoreChart } from '../components/Charts.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import {
  coverageGaps,
  Expiries,
  InternetNlParts,
  MailParts,
  ScanChanges,
  ScanCoverage,
  Timeline,
  VulnerabilityDataAge,
} from '../components/Monitoring.tsx';
import { Grade, SEVERITY_LABELS, STATUS_LABELS } from '../components/Grade.tsx';
import { dashboardPath, DASHBOARD_PAGES } from '../../../domain/endpoints.ts';
import { useTRPC, type Outputs } from '../trpc.ts';
import { PassiveBanner, Verification } from '../components/Verification.tsx';
import { CrawledPages, CrawlSettings } from '../components/Crawl.tsx';

const INTERVALS = [
  ['', 'Uit'],
  ['1', 'Elk uur'],
  ['6', 'Elke 6 uur'],
  ['12', 'Elke 12 uur'],
  ['24', 'Elke dag'],
  ['168', 'Elke week'],
] as const;

function Schedule({
  siteId,
  interval,
  nextScanAt,
}: {
  siteId: string;
  interval: number | null;
  nextScanAt: string | null;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(interval === null ? '' : String(interval));
  useEffect(() => setValue(interval === null ? '' : String(interval)), [interval]);
  const save = useMutation(
    trpc.sites.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.sites.get.queryKey({ site_id: siteId }) }),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ site_id: siteId, scan_interval_hours: value === '' ? null : Number(value) });
  };
  const known = INTERVALS.some(([hours]) => hours === value);
  return (
    <form onSubmit={submit} className="inline">
      <label htmlFor="interval">Scanschema</label>
      <select id="interval" value={value} onChange={(e) => setValue(e.target.value)}>
        {!known && <option value={value}>Elke {value} uur</option>}
        {INTERVALS.map(([hours, label]) => (
          <option key={hours} value={hours}>
            {label}
          </option>
        ))}
      </select>
      <button type="submit" className="secondary" disabled={save.isPending}>
        Schema opslaan
      </button>
      <span className="muted">
        {nextScanAt ? `Volgende scan: ${new Date(nextScanAt).toLocaleString('nl-NL')}` : 'Geen geplande scans.'}
      </span>
      {save.isSuccess && <span role="status">Schema opgeslagen.</span>}
      <ErrorText error={save.error} />
    </form>
  );
}

/** The domain the mail test runs on: the registrable domain by default, another, or none. */
function MailDomain({ siteId, domain }: { siteId: string; domain: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(domain ?? '');
  useEffect(() => setValue(domain ?? ''), [domain]);
  const save = useMutation(
    trpc.sites.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.sites.get.queryKey({ site_id: siteId }) }),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ site_id: siteId, mail_domain: value.trim() === '' ? null : value.trim() });
  };
  return (
    <form onSubmit={submit} className="inline">
      <label htmlFor="mail-domain">Maildomein</label>
      <input
        id="mail-domain"
        value={value}
        placeholder="leeg: geen mailtest"
        onChange={(e) => setValue(e.target.value)}
      />
      <button type="submit" className="secondary" disabled={save.isPending}>
        Maildomein opslaan
      </button>
      {save.isSuccess && <span role="status">Maildomein opgeslagen.</span>}
      <ErrorText error={save.error} />
    </form>
  );
}

type Scan = Outputs['scans']['get'];

/** What cost how many points, and which cap held the score down. */
function ScoreBreakdown({
  breakdown,
  findings,
  score,
}: {
  breakdown: Scan['score_breakdown'];
  findings: Scan['findings'];
  score: number;
}) {
  const titleOf = new Map(findings.map((f) => [f.id, f.title]));
  const costs = breakdown.items.filter((item) => item.points < 0);
  const total = breakdown.start + costs.reduce((sum, item) => sum + item.points, 0);
  return (
    <details className="breakdown">
      <summary>Hoe de score {score} tot stand kwam</summary>
      <table>
        <caption className="muted">
          Begin {breakdown.start}; elke bevinding kost punten naar ernst en categorie.
        </caption>
        <tbody>
          {costs.map((item) => (
            <tr key={item.finding_id}>
              <td>{titleOf.get(item.finding_id) ?? item.finding_type}</td>
              <td className="number">{item.points}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">Na aftrek</th>
            <td className="number">{Math.max(0, total)}</td>
          </tr>
          {breakdown.caps.map((cap) => (
            <tr key={cap.reason}>
              <th scope="row">Begrensd door {cap.reason}</th>
              <td className="number">max. {cap.max}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

export function SitePage({ siteId }: { siteId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const site = useQuery(trpc.sites.get.queryOptions({ site_id: siteId }));
  const history = useQuery(trpc.scans.list.queryOptions({ site_id: siteId, limit: 100 }));
  const latestId = site.data?.latest_scan?.id;
  const latest = useQuery({ ...trpc.scans.get.queryOptions({ scan_id: latestId ?? '' }), enabled: Boolean(latestId) });
  const scan = useMutation(trpc.scans.trigger.mutationOptions({ onSuccess: () => queryClient.invalidateQueries() }));
  const config = useQuery(trpc.config.get.queryOptions());

  if (site.error) return <ErrorText error={site.error} />;
  if (!site.data) return <p className="loading">Laden…</p>;
  const findings = latest.data?.findings ?? [];
  return (
    <>
      <h1>{site.data.name}</h1>
      <p className="muted">{site.data.url}</p>
      <PassiveBanner verification={site.data.verification} />
      <section aria-labelledby="scan-title" className="card">
        <h2 id="scan-title">Laatste scan</h2>
        {site.data.latest_scan ? (
          <p>
            Cijfer: <Grade grade={site.data.latest_scan.grade} score={site.data.latest_scan.score} />, gescand op{' '}
            {new Date(site.data.latest_scan.scanned_at).toLocaleString('nl-NL')}
          </p>
        ) : (
          <p>Deze site is nog niet gescand. Start hieronder de eerste scan.</p>
        )}
        {latest.data && (
          <>
            <ul className="subscores" aria-label="Deelscores">
              {Object.values(CATEGORY_SCORES).map(({ field, label }) => (
                <li key={field}>
                  {label}: {latest.data[field]}/100
                </li>
              ))}
            </ul>
            <p>
              Kritiek {latest.data.critical_count}, hoog {latest.data.high_count}, middel {latest.data.medium_count},
              laag {latest.data.low_count}
            </p>
            <p>Webserver: {latest.data.detected_server ?? 'niet herkend'}</p>
            {latest.data.passive && (
              <p>Passieve scan: alleen wat een browser doet; de ingrijpende tests staan onder "Niet gecontroleerd".</p>
            )}
            <ScoreBreakdown
              breakdown={latest.data.score_breakdown}
              findings={latest.data.findings}
              score={latest.data.score}
            />
          </>
        )}
        <button type="button" onClick={() => scan.mutate({ site_id: siteId })} disabled={scan.isPending}>
          Scan starten
        </button>
        {scan.isPending && (
          <p role="status" className="progress">
            <progress aria-label="Scan bezig" /> Scan bezig: de site wordt nu onderzocht…
          </p>
        )}
        {scan.isSuccess && !scan.isPending && (
          <p role="status">
            Scan klaar: cijfer {scan.data.grade} ({scan.data.score}/100).
          </p>
        )}
        <ErrorText error={scan.error} />
        <Schedule siteId={siteId} interval={site.data.scan_interval_hours} nextScanAt={site.data.next_scan_at} />
        <MailDomain siteId={siteId} domain={site.data.mail_domain} />
        <CrawlSettings siteId={siteId} site={site.data} />
      </section>
      <Verification siteId={siteId} verification={site.data.verification} />
      {config.data && <VulnerabilityDataAge sources={config.data.scanner.vulnerability_data} />}
      {latest.data && <CrawledPages scan={latest.data} />}
      {latest.data && <ScanCoverage coverage={latest.data.coverage} unreachable={latest.data.unreachable} />}
      {latest.data?.internetnl && <InternetNlParts report={latest.data.internetnl} />}
      {latest.data?.mail && <MailParts report={latest.data.mail} />}
      {latestId && <ScanChanges scanId={latestId} />}
      <section aria-labelledby="history-title">
        <h2 id="history-title">Scoregeschiedenis</h2>
        <ScoreChart points={[...(history.data?.scans ?? [])].reverse()} />
      </section>
      <Timeline siteId={siteId} />
      <Expiries siteId={siteId} />
      <section aria-labelledby="findings-title">
        <h2 id="findings-title">Bevindingen van de laatste scan</h2>
        {latestId && findings.length === 0 && latest.isSuccess && (
          <p>
            {coverageGaps(latest.data.coverage).length === 0
              ? 'Geen bevindingen: alles in orde.'
              : 'Geen bevindingen in wat deze scan kon controleren; zie "Niet gecontroleerd".'}
          </p>
        )}
        {SEVERITIES.map((severity) => {
          const group = findings.filter((f) => f.severity === severity);
          if (group.length === 0) return null;
          return (
            <section key={severity} aria-labelledby={`sev-${severity}`}>
              <h3 id={`sev-${severity}`}>
                {SEVERITY_LABELS[severity]} ({group.length})
              </h3>
              <ul className="findings">
                {group.map((f) => (
                  <li key={f.id}>
                    <Link href={dashboardPath(DASHBOARD_PAGES.finding, f.id)}>{f.title}</Link>{' '}
                    <span className="muted">({STATUS_LABELS[f.status]})</span>
                    <div className="small muted">
                      {f.endpoint}
                      {f.affected_count !== null &&
                        f.affected_count > 1 &&
                        ` en ${f.affected_count - 1} andere pagina's`}
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </section>
    </>
  );
}
