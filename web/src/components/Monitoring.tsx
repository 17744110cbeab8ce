import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { dashboardPath, DASHBOARD_PAGES } from '../../../domain/endpoints.ts';
import { INTERNETNL_CATEGORY_LABELS, MAIL_CATEGORY_LABELS, type ScanChangeKind } from '../../../domain/vocabulary.ts';
import { useTRPC, type Outputs } from '../trpc.ts';
import { ErrorText } from './ErrorText.tsx';
import { Grade, Severity } from './Grade.tsx';

const when = (moment: string) => new Date(moment).toLocaleString('nl-NL');
const day = (moment: string) => new Date(moment).toLocaleDateString('nl-NL');

/** How the dashboard names each kind of change. */
export const CHANGE_LABELS: Record<ScanChangeKind, string> = {
  new: 'Nieuw',
  regressed: 'Terug',
  resolved: 'Opgelost',
  severity_changed: 'Andere ernst',
  escalated: 'Verergerd',
  unverified: 'Niet opnieuw gecontroleerd',
};

type CoverageEntry = Outputs['scans']['get']['coverage'][number];

const COVERAGE_LABELS = { failed: 'niet gelukt', skipped: 'overgeslagen' } as const;

/** The entries of tests that could have run on their subject and did not (not applicable is no gap). */
export const coverageGaps = (coverage: CoverageEntry[]) =>
  coverage.filter((entry) => entry.status === 'failed' || entry.status === 'skipped');

/**
 * "Niet gecontroleerd": the tests of a scan that did not complete, on what and why. Their earlier
 * findings stay as they were; a scan that says nothing here checked everything it runs.
 */
export function ScanCoverage({ coverage, unreachable }: { coverage: CoverageEntry[]; unreachable: string | null }) {
  const titleId = useId();
  const gaps = coverageGaps(coverage);
  if (gaps.length === 0) return null;
  return (
    <section aria-labelledby={titleId} className="card">
      <h2 id={titleId}>Niet gecontroleerd</h2>
      <p className="muted">
        {unreachable
          ? `${unreachable} Bevindingen van eerdere scans blijven open tot een scan ze weer kan controleren.`
          : 'Deze onderdelen zijn in deze scan niet (volledig) gecontroleerd. Hun bevindingen van eerdere scans blijven zoals ze waren.'}
      </p>
      <ul className="plain small">
        {gaps.map((entry) => (
          <li key={`${entry.test} ${entry.subject}`}>
            <strong>{entry.test}</strong> op {entry.subject}:{' '}
            {COVERAGE_LABELS[entry.status as keyof typeof COVERAGE_LABELS]}
            {entry.reason && ` (${entry.reason})`}
          </li>
        ))}
      </ul>
    </section>
  );
}

type DataSource = Outputs['config']['get']['scanner']['vulnerability_data'][number];
const SOURCE_NAMES: Record<DataSource['source'], string> = { retire: 'retire.js', wordfence: 'Wordfence' };

/** A warning when the data versions are judged by is old: its findings still count, a clean result less so. */
export function VulnerabilityDataAge({ sources }: { sources: DataSource[] }) {
  const stale = sources.filter((s) => s.stale);
  if (stale.length === 0) return null;
  return (
    <p role="status" className="card small">
      <strong>Let op:</strong>{' '}
      {stale
        .map((s) => `de kwetsbaarheidsgegevens van ${SOURCE_NAMES[s.source]} zijn ${s.age_days} dagen oud`)
        .join('; ')}
      . Bevindingen over versies blijven geldig, maar nieuwe meldingen ontbreken; na 90 dagen telt die controle niet
      meer als voltooid.
    </p>
  );
}

const EXPIRY_LABELS = {
  certificate: 'Certificaat',
  intermediate: 'Tussencertificaat',
  security_txt: 'security.txt',
} as const;

/** "Wat is er veranderd": what one scan changed against the site's scan before it. */
export function ScanChanges({ scanId }: { scanId: string }) {
  const trpc = useTRPC();
  // The site page shows the latest scan's and any opened on the timeline: ids must not repeat.
  const titleId = useId();
  const changes = useQuery(trpc.scans.changeList.queryOptions({ scan_id: scanId }));
  if (changes.error) return <ErrorText error={changes.error} />;
  if (!changes.data) return null;
  const { entries, compared_to_scan_id: comparedTo } = changes.data;
  return (
    <section aria-labelledby={titleId} className="card">
      <h2 id={titleId}>Wat is er veranderd</h2>
      <p className="muted">
        {comparedTo ? 'Ten opzichte van de vorige scan van deze site.' : 'De eerste scan: alles is nieuw.'}
      </p>
      {entries.length === 0 ? (
        <p>Niets veranderd.</p>
      ) : (
        <ul className="plain">
          {entries.map((entry) => (
            <li key={`${entry.kind}-${entry.finding_id}`}>
              <strong>{CHANGE_LABELS[entry.kind]}</strong>:{' '}
              <Link href={dashboardPath(DASHBOARD_PAGES.finding, entry.finding_id)}>
                {entry.title || entry.finding_id}
              </Link>
              {entry.severity && (
                <>
                  {' '}
                  <Severity severity={entry.severity} />
                </>
              )}
              {entry.kind === 'severity_changed' && entry.detail && <span className="muted"> ({entry.detail})</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** "2 nieuw, 1 opgelost": the kinds of change a scan had, in words; "geen wijzigingen" when none. */
function changeSummary(changes: Record<ScanChangeKind, number>): string {
  const parts = (Object.keys(CHANGE_LABELS) as ScanChangeKind[])
    .filter((kind) => changes[kind] > 0)
    .map((kind) => `${changes[kind]} ${CHANGE_LABELS[kind].toLowerCase()}`);
  return parts.length > 0 ? parts.join(', ') : 'geen wijzigingen';
}

/** One scan of the timeline; its "Wat is er veranderd" is fetched only when opened. */
function ScanOnTimeline({ scan }: { scan: Outputs['sites']['timeline'][number] }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        {when(scan.scanned_at)}: <Grade grade={scan.grade} score={scan.score} />{' '}
        <span className="muted">({changeSummary(scan.changes)})</span>
      </summary>
      {open && <ScanChanges scanId={scan.id} />}
    </details>
  );
}

/** The site's scans over time, each with how many findings it opened, brought back and resolved. */
export function Timeline({ siteId }: { siteId: string }) {
  const trpc = useTRPC();
  const timeline = useQuery(trpc.sites.timeline.queryOptions({ site_id: siteId }));
  if (timeline.error) return <ErrorText error={timeline.error} />;
  if (!timeline.data || timeline.data.length === 0) return null;
  return (
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">Tijdlijn</h2>
      <ol className="plain">
        {timeline.data.map((scan) => (
          <li key={scan.id}>
            <ScanOnTimeline scan={scan} />
          </li>
        ))}
      </ol>
    </section>
  );
}

/** What ends when on the site, soonest first (from its latest scan). */
export function Expiries({ siteId }: { siteId: string }) {
  const trpc = useTRPC();
  const expiries = useQuery(trpc.sites.expiries.queryOptions({ site_id: siteId }));
  if (expiries.error) return <ErrorText error={expiries.error} />;
  if (!expiries.data || expiries.data.expiries.length === 0) return null;
  return (
    <section aria-labelledby="expiries-title">
      <h2 id="expiries-title">Wat verloopt wanneer</h2>
      <ul className="plain">
        {expiries.data.expiries.map((item) => (
          <li key={`${item.kind}-${item.subject}`}>
            <strong>{EXPIRY_LABELS[item.kind]}</strong>: geldig tot {day(item.not_after)}{' '}
            {item.days_left < 0 ? '(verlopen)' : `(nog ${item.days_left} dagen)`}
            <div className="small muted break">{item.subject}</div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The tenant's accepted risks still counting, the one ending soonest first. */
export function AcceptanceRegister() {
  const trpc = useTRPC();
  const register = useQuery(trpc.findings.acceptances.queryOptions());
  if (register.error) return <ErrorText error={register.error} />;
  if (!register.data || register.data.length === 0) return null;
  return (
    <section aria-labelledby="register-title" className="card">
      <h2 id="register-title">Geaccepteerde risico's</h2>
      <ul className="plain">
        {register.data.map((row) => (
          <li key={row.finding_id}>
            <Link href={dashboardPath(DASHBOARD_PAGES.finding, row.finding_id)}>{row.title}</Link> ({row.site_name}):
            tot {day(row.expires_at)}, nog {row.days_left} dagen; eigenaar {row.owner.email ?? row.owner.id}
            <div className="small muted">{row.reason}</div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** internet.nl's names for its four parts of the website test. */
const INTERNETNL_STATUS_LABELS = {
  passed: 'geslaagd',
  warning: 'waarschuwing',
  failed: 'gezakt',
  not_tested: 'niet getest',
  error: 'fout',
} as const;

type InternetNl = NonNullable<Outputs['scans']['get']['internetnl']>;

type Part = InternetNl['categories']['ipv6'];

/** One part of an internet.nl test: its verdict and score, the subtests folded out. */
function PartResult({ label, result }: { label: string; result: Part }) {
  return (
    <details>
      <summary>
        {label}: {INTERNETNL_STATUS_LABELS[result.status]}
        {result.score === null ? '' : ` (${result.score}%)`}
      </summary>
      <ul className="plain small">
        {result.tests.map((t) => (
          <li key={t.name}>
            <strong>{INTERNETNL_STATUS_LABELS[t.status]}</strong>: <span className="pre-line">{t.detail}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The latest scan's internet.nl website test: the four parts with their score and subtests. */
export function InternetNlParts({ report }: { report: InternetNl }) {
  return (
    <section aria-labelledby="internetnl-title" className="card">
      <h2 id="internetnl-title">Internet.nl-websitetest</h2>
      <p>
        Score: {report.score === null ? 'niet getest' : `${report.score}%`}{' '}
        <span className="muted">(het gemiddelde van de geteste onderdelen; los van het cijfer hierboven)</span>
      </p>
      {(Object.keys(INTERNETNL_CATEGORY_LABELS) as Array<keyof typeof INTERNETNL_CATEGORY_LABELS>).map((part) => (
        <PartResult key={part} label={INTERNETNL_CATEGORY_LABELS[part]} result={report.categories[part]} />
      ))}
    </section>
  );
}

type Mail = NonNullable<Outputs['scans']['get']['mail']>;

const SMTP_STATE_LABELS: Record<Mail['smtp']['state'], string> = {
  tested: 'getest',
  cached: 'uit de cache van de laatste 24 uur',
  pending: 'loopt nog',
  not_tested: 'niet getest',
};

const EXTRA_LABELS: Record<keyof Mail['extras'], string> = {
  mta_sts: 'MTA-STS',
  tls_rpt: 'TLS-rapportage (TLS-RPT)',
  bimi: 'BIMI (informatief)',
};

/** The latest scan's internet.nl mail test: five parts, the extras, and the records to publish. */
export function MailParts({ report }: { report: Mail }) {
  return (
    <section aria-labelledby="mail-title" className="card">
      <h2 id="mail-title">Internet.nl-mailtest van {report.domain}</h2>
      {report.internetnl === null ? (
        <p>
          {report.status === 'not_applicable' ? 'Niet van toepassing' : 'Niet getest'}: {report.reason}
        </p>
      ) : (
        <>
          <p>
            Score: {report.internetnl.score === null ? 'niet getest' : `${report.internetnl.score}%`}{' '}
            <span className="muted">(het gemiddelde van de geteste onderdelen; los van het cijfer hierboven)</span>
          </p>
          <p className="small">
            Mailservers (STARTTLS en DANE): {SMTP_STATE_LABELS[report.smtp.state]}
            {report.smtp.reason ? `: ${report.smtp.reason}` : ''}
          </p>
          {(Object.keys(MAIL_CATEGORY_LABELS) as Array<keyof typeof MAIL_CATEGORY_LABELS>).map((part) => (
            <PartResult key={part} label={MAIL_CATEGORY_LABELS[part]} result={report.internetnl!.categories[part]} />
          ))}
          <ul className="plain small">
            {(Object.keys(EXTRA_LABELS) as Array<keyof Mail['extras']>).map((extra) => (
              <li key={extra}>
                <strong>{EXTRA_LABELS[extra]}</strong>: {INTERNETNL_STATUS_LABELS[report.extras[extra].status]},{' '}
                {report.extras[extra].detail}
              </li>
            ))}
          </ul>
        </>
      )}
      {report.fixes.length > 0 && (
        <>
          <h3>Te publiceren</h3>
          <ul className="plain small">
            {report.fixes.map((fix) => (
              <li key={`${fix.fixes} ${fix.name}`}>
                {fix.type === 'TXT' ? `TXT-record op ${fix.name}` : `Bestand ${fix.name}`}:<pre>{fix.value}</pre>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
