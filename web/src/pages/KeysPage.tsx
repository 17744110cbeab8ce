import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { DEFAULT_RATE_LIMIT, PERMISSIONS, type Permission } from '../../../domain/vocabulary.ts';
import { CheckboxGroup } from '../components/Choices.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { SecretOnce } from '../components/SecretOnce.tsx';
import { useTRPC } from '../trpc.ts';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('nl-NL') : '–');

export function KeysPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.keys.list.queryOptions());
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>(['read_scans', 'read_findings']);
  const [rateLimit, setRateLimit] = useState(DEFAULT_RATE_LIMIT);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.keys.list.queryKey() });
  const create = useMutation(trpc.keys.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.keys.revoke.mutationOptions({ onSuccess: refresh }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, permissions, rate_limit: rateLimit });
  };
  return (
    <>
      <h1>API-sleutels</h1>
      {create.data && (
        <SecretOnce
          label="Nieuwe API-sleutel"
          value={create.data.key}
          note="Bewaar deze sleutel nu: hij wordt maar één keer getoond."
        />
      )}
      <section aria-labelledby="new-key-title" className="card">
        <h2 id="new-key-title">Sleutel maken</h2>
        <form onSubmit={submit}>
          <label htmlFor="key-name">Naam</label>
          <input id="key-name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          <CheckboxGroup legend="Permissies" options={PERMISSIONS} picked={permissions} onChange={setPermissions} />
          <label htmlFor="key-rate">Verzoeken per minuut</label>
          <input
            id="key-rate"
            type="number"
            min={1}
            max={100000}
            required
            value={rateLimit}
            onChange={(e) => setRateLimit(Number(e.target.value))}
          />
          <button type="submit" disabled={create.isPending}>
            Sleutel aanmaken
          </button>
          <ErrorText error={create.error} />
        </form>
      </section>
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">Sleutels</h2>
        <ErrorText error={keys.error ?? revoke.error} />
        {keys.data && keys.data.length === 0 && <p>Nog geen sleutels.</p>}
        {keys.data && keys.data.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">Naam</th>
                <th scope="col">Begin</th>
                <th scope="col">Permissies</th>
                <th scope="col">Van</th>
                <th scope="col">Aangemaakt</th>
                <th scope="col">Laatst gebruikt</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.key_id}>
                  <th scope="row">{key.name}</th>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td className="small">{key.permissions.join(', ')}</td>
                  <td className="small">{key.user_email}</td>
                  <td>{when(key.created_at)}</td>
                  <td>{when(key.last_used_at)}</td>
                  <td>
                    {key.revoked_at ? (
                      `Ingetrokken ${when(key.revoked_at)}`
                    ) : (
                      <button type="button" className="danger" onClick={() => revoke.mutate({ key_id: key.key_id })}>
                        Intrekken
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
