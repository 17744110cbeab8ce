import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { DASHBOARD_PAGES } from '../../../domain/endpoints.ts';
import { ErrorText } from '../components/ErrorText.tsx';
import { useTRPC } from '../trpc.ts';

/** The one-time invitation link: its token is in the fragment, which never reaches a server log. */
export function InvitePage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [password, setPassword] = useState('');
  const token = window.location.hash.slice(1);
  const accept = useMutation(
    trpc.account.acceptInvite.mutationOptions({
      onSuccess: async () => {
        history.replaceState(null, '', DASHBOARD_PAGES.overview);
        await queryClient.invalidateQueries();
        navigate(DASHBOARD_PAGES.overview);
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    accept.mutate({ token, password });
  };
  return (
    <main id="inhoud" className="login">
      <h1>Uitnodiging aannemen</h1>
      {token ? (
        <form onSubmit={submit} className="card">
          <p>Kies een wachtwoord om het team te versterken.</p>
          <label htmlFor="new-password">Wachtwoord</label>
          <input
            id="new-password"
            type="password"
            autoComplete="new-password"
            required
            minLength={12}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <button type="submit" disabled={accept.isPending}>
            Wachtwoord instellen
          </button>
          <ErrorText error={accept.error} />
        </form>
      ) : (
        <p role="alert" className="error">
          Deze link is onvolledig: open de uitnodigingslink precies zoals u die kreeg.
        </p>
      )}
    </main>
  );
}
