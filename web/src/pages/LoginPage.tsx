import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorText } from '../components/ErrorText.tsx';
import { useTRPC } from '../trpc.ts';
import { ForgotPassword } from './PasswordResetPage.tsx';

/**
 * Log in and sign up share one form: "Inloggen" logs in with the address and password, "Account
 * aanmaken" creates a tenant on the free plan with them (the organisation is optional).
 */
export function LoginPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [organisation, setOrganisation] = useState('');
  const done = { onSuccess: () => queryClient.invalidateQueries() };
  const logIn = useMutation(trpc.account.logIn.mutationOptions(done));
  const signUp = useMutation(trpc.account.signUp.mutationOptions(done));
  const busy = logIn.isPending || signUp.isPending;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    logIn.reset();
    signUp.reset();
    if (submitter?.value === 'signup') {
      signUp.mutate({ email, password, organisation: organisation.trim() || email.split('@')[1] || email });
    } else {
      logIn.mutate({ email, password });
    }
  };

  return (
    <main id="inhoud" className="login">
      <h1>Website Security Scanner</h1>
      <p>Log in op het dashboard, of maak gratis een account aan.</p>
      <form onSubmit={submit} className="card">
        <label htmlFor="email">E-mailadres</label>
        <input
          id="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <label htmlFor="password">Wachtwoord</label>
        <input
          id="password"
          type="password"
          autoComplete="current-password"
          required
          minLength={12}
          aria-describedby="password-hint"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <p id="password-hint" className="hint">
          Minimaal 12 tekens.
        </p>
        <label htmlFor="organisation">Organisatie (alleen bij een nieuw account, optioneel)</label>
        <input
          id="organisation"
          type="text"
          autoComplete="organization"
          value={organisation}
          onChange={(e) => setOrganisation(e.target.value)}
        />
        <div className="actions">
          <button type="submit" name="action" value="login" disabled={busy}>
            Inloggen
          </button>
          <button type="submit" name="action" value="signup" className="secondary" disabled={busy}>
            Account aanmaken
          </button>
        </div>
        {signUp.data?.message && <p role="status">{signUp.data.message}</p>}
        <ErrorText error={logIn.error ?? signUp.error} />
      </form>
      <ForgotPassword />
    </main>
  );
}
