import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Diff } from '../components/Diff.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { useTRPC, type Outputs } from '../trpc.ts';

const STATUS = {
  pending: 'Wacht op beoordeling',
  approved: 'Goedgekeurd',
  rejected: 'Afgewezen',
  applied: 'Toegepast',
} as const;
type Queued = Outputs['staff']['reviewQueue']['suggestions'][number];

function ReviewItem({ suggestion }: { suggestion: Queued }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [notes, setNotes] = useState('');
  const review = useMutation(trpc.staff.review.mutationOptions({ onSuccess: () => queryClient.invalidateQueries() }));
  const decide = (status: 'approved' | 'rejected' | 'applied') =>
    review.mutate({ suggestion_id: suggestion.id, status, notes: notes || undefined });
  const notesId = `notes-${suggestion.id}`;
  return (
    <li className="card">
      <h3>{suggestion.title}</h3>
      <p className="small muted">
        {suggestion.tenant_name} · {suggestion.type} · {new Date(suggestion.created_at).toLocaleString('nl-NL')}
        {suggestion.file_path ? ` · ${suggestion.file_path}` : ''}
      </p>
      <p>{suggestion.description}</p>
      {suggestion.diff && <Diff diff={suggestion.diff} />}
      <label htmlFor={notesId}>Notities</label>
      <textarea id={notesId} rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />
      <div className="actions">
        <button type="button" onClick={() => decide('approved')} disabled={review.isPending}>
          Goedkeuren
        </button>
        <button type="button" className="danger" onClick={() => decide('rejected')} disabled={review.isPending}>
          Afwijzen
        </button>
        <button type="button" className="secondary" onClick={() => decide('applied')} disabled={review.isPending}>
          Toegepast
        </button>
      </div>
      <ErrorText error={review.error} />
    </li>
  );
}

function ReviewQueue() {
  const trpc = useTRPC();
  const queue = useQuery(trpc.staff.reviewQueue.queryOptions({ status: 'pending' }));
  return (
    <section aria-labelledby="queue-title">
      <h2 id="queue-title">Beoordelingswachtrij (alle accounts)</h2>
      <ErrorText error={queue.error} />
      {queue.data && queue.data.suggestions.length === 0 && <p>Niets te beoordelen.</p>}
      <ul className="plain">
        {queue.data?.suggestions.map((s) => (
          <ReviewItem key={s.id} suggestion={s} />
        ))}
      </ul>
    </section>
  );
}

export function SuggestionsPage({ isStaff }: { isStaff: boolean }) {
  const trpc = useTRPC();
  const own = useQuery(trpc.suggestions.list.queryOptions({ limit: 100 }));
  return (
    <>
      <h1>Suggesties</h1>
      {isStaff && <ReviewQueue />}
      <section aria-labelledby="own-title">
        <h2 id="own-title">Suggesties van dit account</h2>
        <ErrorText error={own.error} />
        {own.data && own.data.suggestions.length === 0 && <p>Nog geen suggesties. Agents dienen ze in via de API.</p>}
        {own.data && own.data.suggestions.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">Titel</th>
                <th scope="col">Soort</th>
                <th scope="col">Status</th>
                <th scope="col">Notities</th>
                <th scope="col">Ingediend</th>
              </tr>
            </thead>
            <tbody>
              {own.data.suggestions.map((s) => (
                <tr key={s.id}>
                  <th scope="row">{s.title}</th>
                  <td>{s.type}</td>
                  <td>{STATUS[s.status]}</td>
                  <td>{s.review_notes ?? '–'}</td>
                  <td>{new Date(s.created_at).toLocaleString('nl-NL')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
