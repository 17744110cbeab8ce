import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FINDING_STATUSES, RISK_ACCEPTANCE } from '../../../domain/vocabulary.ts';
import { useTRPC, type Outputs } from '../trpc.ts';
import { ErrorText } from './ErrorText.tsx';
import { STATUS_LABELS } from './Grade.tsx';

type Finding = Outputs['findings']['page']['finding'];
type Status = (typeof FINDING_STATUSES)[number];

const DAY_MS = 86_400_000;
/** A date field's value (yyyy-mm-dd) `days` from now. */
const dateIn = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
/** The end of the chosen day in the browser's time zone, as the API wants it. */
const endOfDay = (date: string) => new Date(`${date}T23:59:59`).toISOString();

/**
 * One finding's status form. Accepting the risk asks for what the service requires: a reason, an
 * owner in the team and an end at most a year ahead; any other status revokes the acceptance.
 */
export function StatusForm({ finding }: { finding: Finding }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status>(finding.status);
  const [reason, setReason] = useState('');
  const [ownerId, setOwnerId] = useState('');
  const [until, setUntil] = useState(dateIn(90));
  const accepting = status === 'ACCEPTED_RISK';
  const owners = useQuery({ ...trpc.findings.owners.queryOptions(), enabled: accepting });
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
    save.mutate({
      finding_id: finding.id,
      status,
      reason: reason || undefined,
      ...(accepting ? { owner_id: ownerId || owners.data?.[0]?.id, expires_at: endOfDay(until) } : {}),
    });
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
      {accepting && (
        <>
          <label htmlFor={`reason-${finding.id}`}>Reden</label>
          <input
            id={`reason-${finding.id}`}
            required
            minLength={RISK_ACCEPTANCE.minReasonLength}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          <label htmlFor={`owner-${finding.id}`}>Eigenaar van het risico</label>
          <select id={`owner-${finding.id}`} value={ownerId} onChange={(e) => setOwnerId(e.target.value)}>
            {(owners.data ?? []).map((owner) => (
              <option key={owner.id} value={owner.id}>
                {owner.email}
              </option>
            ))}
          </select>
          <label htmlFor={`until-${finding.id}`}>Geaccepteerd tot en met</label>
          <input
            id={`until-${finding.id}`}
            type="date"
            required
            min={dateIn(0)}
            max={dateIn(RISK_ACCEPTANCE.maxDays - 1)}
            value={until}
            onChange={(e) => setUntil(e.target.value)}
          />
        </>
      )}
      <button type="submit" className="secondary" disabled={save.isPending}>
        Status opslaan
      </button>
      <ErrorText error={save.error} />
    </form>
  );
}
