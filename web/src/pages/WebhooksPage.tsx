import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../../domain/vocabulary.ts';
import { CheckboxGroup } from '../components/Choices.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { SecretOnce } from '../components/SecretOnce.tsx';
import { useTRPC } from '../trpc.ts';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('nl-NL') : '–');

function DeliveryLog({ webhookId }: { webhookId: string }) {
  const trpc = useTRPC();
  const log = useQuery(trpc.webhooks.deliveries.queryOptions({ id: webhookId }));
  if (log.error) return <ErrorText error={log.error} />;
  if (!log.data) return <p className="loading">Laden…</p>;
  if (log.data.length === 0) return <p>Nog geen afleveringen.</p>;
  return (
    <table aria-label="Afleveringen">
      <thead>
        <tr>
          <th scope="col">Tijdstip</th>
          <th scope="col">Gebeurtenis</th>
          <th scope="col">Antwoord</th>
          <th scope="col">Duur</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {log.data.map((attempt) => (
          <tr key={`${attempt.message_id}-${attempt.attempted_at}`}>
            <td>{when(attempt.attempted_at)}</td>
            <td>{attempt.event_type}</td>
            <td>{attempt.status_code ?? attempt.error ?? '–'}</td>
            <td>{attempt.duration_ms} ms</td>
            <td>{attempt.delivery_status}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function WebhooksPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hooks = useQuery(trpc.webhooks.list.queryOptions());
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['scan_completed']);
  const [open, setOpen] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const create = useMutation(trpc.webhooks.create.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.webhooks.delete.mutationOptions({ onSuccess: refresh }));
  const enable = useMutation(trpc.webhooks.enable.mutationOptions({ onSuccess: refresh }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ url, events });
  };
  return (
    <>
      <h1>Webhooks</h1>
      {create.data && (
        <SecretOnce
          label="Nieuw webhookgeheim"
          value={create.data.webhook.secret}
          note="Controleer hiermee de handtekening van elke melding. Het geheim wordt maar één keer getoond."
        />
      )}
      <section aria-labelledby="new-hook-title" className="card">
        <h2 id="new-hook-title">Nieuwe webhook</h2>
        <form onSubmit={submit}>
          <label htmlFor="hook-url">URL</label>
          <input
            id="hook-url"
            type="url"
            required
            placeholder="https://"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
          <CheckboxGroup legend="Gebeurtenissen" options={WEBHOOK_EVENTS} picked={events} onChange={setEvents} />
          <button type="submit" disabled={create.isPending}>
            Webhook toevoegen
          </button>
          <ErrorText error={create.error} />
        </form>
      </section>
      <section aria-labelledby="hooks-title">
        <h2 id="hooks-title">Geregistreerde webhooks</h2>
        <ErrorText error={hooks.error ?? remove.error ?? enable.error} />
        {hooks.data && hooks.data.webhooks.length === 0 && <p>Nog geen webhooks.</p>}
        <ul className="hooks">
          {hooks.data?.webhooks.map((hook) => (
            <li key={hook.id} className="card">
              <h3>{hook.url}</h3>
              <p className="small">
                {hook.events.join(', ')} · {hook.enabled ? 'actief' : 'uitgeschakeld'} · laatste aflevering{' '}
                {when(hook.last_triggered_at)} · mislukt op rij: {hook.failure_count}
              </p>
              <div className="actions">
                <button
                  type="button"
                  className="secondary"
                  aria-expanded={open === hook.id}
                  onClick={() => setOpen(open === hook.id ? null : hook.id)}
                >
                  Afleveringen
                </button>
                {!hook.enabled && (
                  <button type="button" className="secondary" onClick={() => enable.mutate({ id: hook.id })}>
                    Opnieuw inschakelen
                  </button>
                )}
                <button type="button" className="danger" onClick={() => remove.mutate({ id: hook.id })}>
                  Verwijderen
                </button>
              </div>
              {open === hook.id && <DeliveryLog webhookId={hook.id} />}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
