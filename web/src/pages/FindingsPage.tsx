import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { CATEGORIES, FINDING_STATUSES, SEVERITIES } from '../../../domain/vocabulary.ts';
import { FilterSelect } from '../components/Choices.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { SEVERITY_LABELS, Severity, STATUS_LABELS } from '../components/Grade.tsx';
import { useTRPC, type Outputs } from '../trpc.ts';

const PAGE = 25;
type Finding = Outputs['findings']['list']['findings'][number];
type Change = Outputs['findings']['history'][number];
type Status = (typeof FINDING_STATUSES)[number];

/** One finding's status form; ACCEPTED_RISK asks for the reason the service requires. */
function StatusForm({ finding, change }: { finding: Finding; change: Change | undefined }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status>(finding.status);
  const [reason, setReason] = useState('');
  const save = useMutation(
    trpc.findings.setStatus.mutationOptions({
      onSuccess: () => {
        setReason('');
        return queryClient.invalidateQueries({ queryKey: trpc.findings.pathKey() });
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ finding_id: finding.id, status, reason: reason || undefined });
  };
  const id = `status-${finding.id}`;
  return (
    <form onSubmit={submit} className="status-form">
      <label htmlFor={id}>Status van „{finding.title}”</label>
      <select id={id} value={status} onChange={(e) => setStatus(e.target.value as Status)}>
        {FINDING_STATUSES.map((s) => (
          <option key={s} value={s}>
            {STATUS_LABELS[s]}
          </option>
        ))}
      </select>
      {status === 'ACCEPTED_RISK' && (
        <>
          <label htmlFor={`reason-${finding.id}`}>Reden</label>
          <input id={`reason-${finding.id}`} required value={reason} onChange={(e) => setReason(e.target.value)} />
        </>
      )}
      <button type="submit" className="secondary" disabled={save.isPending}>
        Status opslaan
      </button>
      {change && (
        <p className="small muted">
          {STATUS_LABELS[change.status]} door {change.changed_by} op {new Date(change.changed_at).toLocaleString('nl-NL')}
          {change.reason ? `: ${change.reason}` : ''}
        </p>
      )}
      <ErrorText error={save.error} />
    </form>
  );
}

export function FindingsPage() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState({ severity: '', category: '', status: '', site_id: '', search: '' });
  const [offset, setOffset] = useState(0);
  const sites = useQuery(trpc.sites.list.queryOptions({ limit: 100 }));
  const input = {
    limit: PAGE,
    offset,
    ...(filters.severity ? { severity: filters.severity as (typeof SEVERITIES)[number] } : {}),
    ...(filters.category ? { category: filters.category as (typeof CATEGORIES)[number] } : {}),
    ...(filters.status ? { status: filters.status as Status } : {}),
    ...(filters.site_id ? { site_id: filters.site_id } : {}),
    ...(filters.search.trim() ? { search: filters.search.trim() } : {}),
  };
  const list = useQuery({ ...trpc.findings.list.queryOptions(input), placeholderData: keepPreviousData });
  const ids = list.data?.findings.map((f) => f.id) ?? [];
  const history = useQuery({ ...trpc.findings.history.queryOptions({ finding_ids: ids }), enabled: ids.length > 0 });
  const latestChange = (id: string) => history.data?.find((c) => c.finding_id === id);
  const set = (name: keyof typeof filters) => (value: string) => {
    setFilters({ ...filters, [name]: value });
    setOffset(0);
  };
  const total = list.data?.pagination.total ?? 0;
  return (
    <>
      <h1>Bevindingen</h1>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="f-search">Zoeken</label>
        <input id="f-search" type="search" value={filters.search} onChange={(e) => set('search')(e.target.value)} />
        <FilterSelect id="f-severity" label="Ernst" value={filters.severity} options={SEVERITIES.map((s) => [s, SEVERITY_LABELS[s]] as const)} onChange={set('severity')} />
        <FilterSelect id="f-category" label="Categorie" value={filters.category} options={CATEGORIES.map((c) => [c, c] as const)} onChange={set('category')} />
        <FilterSelect id="f-status" label="Status" value={filters.status} options={FINDING_STATUSES.map((s) => [s, STATUS_LABELS[s]] as const)} onChange={set('status')} />
        <FilterSelect id="f-site" label="Site" value={filters.site_id} options={(sites.data?.sites ?? []).map((s) => [s.id, s.name] as const)} onChange={set('site_id')} />
      </form>
      <ErrorText error={list.error} />
      {list.data && (
        <>
          <p role="status">
            {total} bevindingen (kritiek {list.data.summary.critical}, hoog {list.data.summary.high}, middel {list.data.summary.medium}, laag {list.data.summary.low})
          </p>
          <ul className="findings">
            {list.data.findings.map((f) => (
              <li key={f.id}>
                <Severity severity={f.severity} /> <strong>{f.title}</strong> <span className="muted">· {f.site_name}</span>
                <div className="small">{f.description}</div>
                <div className="small muted">
                  {f.endpoint} · {f.category}
                </div>
                <StatusForm key={`${f.id}-${f.status}`} finding={f} change={latestChange(f.id)} />
              </li>
            ))}
          </ul>
          <nav aria-label="Paginering" className="pager">
            <button type="button" className="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              Vorige
            </button>
            <span>
              {total === 0 ? 0 : offset + 1}–{Math.min(offset + PAGE, total)} van {total}
            </span>
            <button type="button" className="secondary" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
              Volgende
            </button>
          </nav>
        </>
      )}
    </>
  );
}
