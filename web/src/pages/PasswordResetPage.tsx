import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { DASHBOARD_PAGES } from '../../../domain/endpoints.ts';
import { ErrorText } from '../components/ErrorText.tsx';
import { NewPasswordForm } from '../components/NewPasswordForm.tsx';
import { useTRPC } from '../trpc.ts';

/**
 * The link of a reset mail: its token is in the fragment (never in a server log). A new password
 * ends every session and logs nobody in: the next step is the login page.
 */
export function PasswordResetPage() {
  const trpc = useTRPC();
  const token = window.location.hash.slice(1);
  const reset = useMutation(
    trpc.account.resetPassword.mutationOptions({
      onSuccess: () => history.replaceState(null, '', DASHBOARD_PAGES.passwordReset),
    }),
  );
  return (
    <main id="inhoud" className="login">
      <h1>Wachtwoord herstellen</h1>
      {reset.isSuccess ? (
        <p role="status">
          Uw wachtwoord is ingesteld en elke sessie is beëindigd. <a href={DASHBOARD_PAGES.login}>Log opnieuw in</a>.
        </p>
      ) : token ? (
        <NewPasswordForm
          id="reset-password"
          label="Nieuw wachtwoord"
          pending={reset.isPending}
          error={reset.error}
          onSubmit={(password) => reset.mutate({ token, password })}
        />
      ) : (
        <p role="alert" className="error">
          Deze link is onvolledig: open de herstellink precies zoals u die kreeg.
        </p>
      )}
    </main>
  );
}

/** "Wachtwoord vergeten?": the same answer for every address. */
export function ForgotPassword() {
  const trpc = useTRPC();
  const [email, setEmail] = useState('');
  const request = useMutation(trpc.account.requestPasswordReset.mutationOptions());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate({ email });
  };
  return (
    <details className="card">
      <summary>Wachtwoord vergeten?</summary>
      <form onSubmit={submit} aria-label="Herstellink aanvragen">
        <label htmlFor="forgot-email">Adres voor de herstellink</label>
        <input
          id="forgot-email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <button type="submit" className="secondary" disabled={request.isPending}>
          Herstellink sturen
        </button>
        {request.data && <p role="status">{request.data.message}</p>}
        <ErrorText error={request.error} />
      </form>
    </details>
  );
}
