import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { dashboardPath, DASHBOARD_PAGES } from '../../../domain/endpoints.ts';
import { ErrorText } from '../components/ErrorText.tsx';
import { Grade, Severity, STATUS_LABELS } from '../components/Grade.tsx';
import { StatusForm } from '../components/StatusForm.tsx';
import { useTRPC } from '../trpc.ts';

const CATEGORY_LABELS = {
  SSL_TLS: 'SSL/TLS',
  SECURITY_HEADER: 'Beveiligingsheaders',
  EXPOSED_ENDPOINT: 'Blootgestelde endpoints',
} as const;
const when = (moment: string) => new Date(moment).toLocaleString('nl-NL');

/** One finding, with what an owner needs to fix it: impact, remedy, found against expected, reference. */
export function FindingPage({ findingId }: { findingId: string }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.findings.page.queryOptions({ finding_id: findingId }));
  if (detail.error) return <ErrorText error={detail.error} />;
  if (!detail.data) return <p className="loading">Laden…</p>;
  const { finding, history, scans, suggestions } = detail.data;
  const section = (id: string, title: string, body: React.ReactNode) => (
    <section aria-labelledby={id} className="card">
      <h2 id={id}>{title}</h2>
      {body}
    </section>
  );
  return (
    <>
      <p>
        <Link href={DASHBOARD_PAGES.findings}>← Alle bevindingen</Link>
      </p>
      <h1>{finding.title}</h1>
      <dl className="facts">
        <dt>Ernst</dt>
        <dd>
          <Severity severity={finding.severity} />
        </dd>
        <dt>Categorie</dt>
        <dd>{CATEGORY_LABELS[finding.category]}</dd>
        <dt>Status</dt>
        <dd>{STATUS_LABELS[finding.status]}</dd>
        <dt>Site</dt>
        <dd>
          <Link href={dashboardPath(DASHBOARD_PAGES.site, finding.site_id)}>{finding.site_name}</Link>
        </dd>
        <dt>Endpoint</dt>
        <dd className="break">{finding.endpoint}</dd>
      </dl>
      <p>{finding.description}</p>
      {section('impact', 'Impact', <p>{finding.impact}</p>)}
      {section(
        'oplossing',
        'Oplossing',
        <>
          <p>{finding.remediation}</p>
          {finding.fixes.map((fix) => (
            <div key={`${fix.target}-${fix.title}`}>
              <h3>
                {fix.title}{' '}
                <span className="muted">
                  ({fix.target}
                  {fix.context ? `, ${fix.context}` : ''})
                </span>
              </h3>
              <pre className="break">
                <code>{fix.snippet}</code>
              </pre>
              {fix.notes && <p className="muted">{fix.notes}</p>}
            </div>
          ))}
        </>,
      )}
      {section(
        'gevonden',
        'Gevonden waarde',
        <p className="break">{finding.actual_value ?? 'Niet vastgelegd bij deze controle.'}</p>,
      )}
      {section('verwacht', 'Verwachte waarde', <p className="break">{finding.expected_value}</p>)}
      {section(
        'meer',
        'Meer informatie',
        <p>
          <a href={finding.reference_url} rel="noreferrer">
            {finding.reference_url}
          </a>
        </p>,
      )}
      {section(
        'status-title',
        'Status',
        <>
          {finding.acceptance && (
            <p role="note">
              Risico geaccepteerd tot {when(finding.acceptance.expires_at)}, eigenaar{' '}
              {finding.acceptance.owner.email ?? finding.acceptance.owner.id}: {finding.acceptance.reason}
            </p>
          )}
          <StatusForm key={finding.status} finding={finding} />
          {history.length > 0 ? (
            <ol className="plain small">
              {history.map((change) => (
                <li key={`${change.changed_at}-${change.status}-${change.scan_id ?? change.changed_by}`}>
                  {STATUS_LABELS[change.status]} door {change.changed_by} op {when(change.changed_at)}
                  {change.reason ? `: ${change.reason}` : ''}
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted">De status is nog niet gewijzigd.</p>
          )}
        </>,
      )}
      {section(
        'scans-title',
        'Gezien in scans',
        scans.length > 0 ? (
          <ul className="plain">
            {scans.map((scan) => (
              <li key={scan.id}>
                {when(scan.scanned_at)}: <Grade grade={scan.grade} score={scan.score} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">Geen scan bewaard die deze bevinding zag.</p>
        ),
      )}
      {section(
        'suggestions-title',
        'Voorstellen',
        suggestions.length > 0 ? (
          <ul className="plain">
            {suggestions.map((s) => (
              <li key={s.id}>
                {s.title} <span className="muted">({s.status})</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">
            Nog geen voorstel noemt deze bevinding. Een agent kan er een indienen met het id van de bevinding in de
            metadata.
          </p>
        ),
      )}
    </>
  );
}
