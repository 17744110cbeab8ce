import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { CATEGORIES, FINDING_STATUSES, SEVERITIES } from '../../../domain/vocabulary.ts';
import { FilterSelect } from '../components/Choices.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { SEVERITY_LABELS, Severity, STATUS_LABELS } from '../components/Grade.tsx';
import { dashboardPath, DASHBOARD_PAGES } from '../../../domain/endpoints.ts';
import { useTRPC } from '../trpc.ts';
import { AcceptanceRegister } from '../components/Monitoring.tsx';

const PAGE = 25;
type Status = (typeof FINDING_STATUSES)[number];

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
  const set = (name: keyof typeof filters) => (value: string) => {
    setFilters({ ...filters, [name]: value });
    setOffset(0);
  };
  const total = list.data?.pagination.total ?? 0;
  return (
    <>
      <h1>Bevindingen</h1>
      <AcceptanceRegister />
      {/* biome-ignore lint/a11y/useSemanticElements: the <search> element is not yet announced by every screen reader; role=search on the form is the established pattern */}
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="f-search">Zoeken</label>
        <input id="f-search" type="search" value={filters.search} onChange={(e) => set('search')(e.target.value)} />
        <FilterSelect
          id="f-severity"
          label="Ernst"
          value={filters.severity}
          options={SEVERITIES.map((s) => [s, SEVERITY_LABELS[s]] as const)}
          onChange={set('severity')}
        />
        <FilterSelect
          id="f-category"
          label="Categorie"
          value={filters.category}
          options={CATEGORIES.map((c) => [c, c] as const)}
          onChange={set('category')}
        />
        <FilterSelect
          id="f-status"
          label="Status"
          value={filters.status}
          options={FINDING_STATUSES.map((s) => [s, STATUS_LABELS[s]] as const)}
          onChange={set('status')}
        />
        <FilterSelect
          id="f-site"
          label="Site"
          value={filters.site_id}
          options={(sites.data?.sites ?? []).map((s) => [s.id, s.name] as const)}
          onChange={set('site_id')}
        />
      </form>
      <ErrorText error={list.error} />
      {list.data && (
        <>
          <p role="status">
            {total} bevindingen (kritiek {list.data.summary.critical}, hoog {list.data.summary.high}, middel{' '}
            {list.data.summary.medium}, laag {list.data.summary.low})
          </p>
          <ul className="findings" aria-label="Gevonden bevindingen">
            {list.data.findings.map((f) => (
              <li key={f.id}>
                <Severity severity={f.severity} />{' '}
                <Link href={dashboardPath(DASHBOARD_PAGES.finding, f.id)}>{f.title}</Link>{' '}
                <span className="muted">
                  · {f.site_name} · {STATUS_LABELS[f.status]}
                </span>
                <div className="small muted">{f.endpoint}</div>
              </li>
            ))}
          </ul>
          <nav aria-label="Paginering" className="pager">
            <button
              type="button"
              className="secondary"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - PAGE))}
            >
              Vorige
            </button>
            <span>
              {total === 0 ? 0 : offset + 1}–{Math.min(offset + PAGE, total)} van {total}
            </span>
            <button
              type="button"
              className="secondary"
              disabled={offset + PAGE >= total}
              onClick={() => setOffset(offset + PAGE)}
            >
              Volgende
            </button>
          </nav>
        </>
      )}
    </>
  );
}
