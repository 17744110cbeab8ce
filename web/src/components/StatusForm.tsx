import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FINDING_STATUSES } from '../../../domain/vocabulary.ts';
import { useTRPC, type Outputs } from '../trpc.ts';
import { ErrorText } from './ErrorText.tsx';
import { STATUS_LABELS } from './Grade.tsx';

type Finding = Outputs['findings']['page']['finding'];
type Status = (typeof FINDING_STATUSES)[number];

/** One finding's status form; ACCEPTED_RISK asks for the reason the service requires. */
export function StatusForm({ finding }: { finding: Finding }) {
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
      <ErrorText error={save.error} />
    </form>
  );
}
