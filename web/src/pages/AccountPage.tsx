import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorText } from '../components/ErrorText.tsx';
import { MyNotifications } from '../components/MyNotifications.tsx';
import { useTRPC } from '../trpc.ts';

export function AccountPage() {
  const trpc = useTRPC();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation(
    trpc.account.changePassword.mutationOptions({
      onSuccess: () => {
        setCurrent('');
        setNext('');
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ current, next });
  };
  return (
    <>
      <h1>Account</h1>
      <section aria-labelledby="password-title" className="card">
        <h2 id="password-title">Wachtwoord wijzigen</h2>
        <p>Na de wijziging zijn alle andere sessies (andere browsers, apparaten) beëindigd.</p>
        <form onSubmit={submit}>
          <label htmlFor="current-password">Huidig wachtwoord</label>
          <input
            id="current-password"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
          <label htmlFor="next-password">Nieuw wachtwoord</label>
          <input
            id="next-password"
            type="password"
            autoComplete="new-password"
            required
            minLength={12}
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
          <button type="submit" disabled={change.isPending}>
            Wachtwoord wijzigen
          </button>
          {change.isSuccess && <p role="status">Wachtwoord gewijzigd; andere sessies zijn beëindigd.</p>}
          <ErrorText error={change.error} />
        </form>
      </section>
      <MyNotifications />
    </>
  );
}
