import { useState, type FormEvent, type ReactNode } from 'react';
import { ErrorText } from './ErrorText.tsx';

/** A new password (12 characters or more) sent with a one-time link's token: invitations and resets. */
export function NewPasswordForm({
  id,
  label,
  intro,
  pending,
  error,
  onSubmit,
}: {
  id: string;
  label: string;
  intro?: ReactNode;
  pending: boolean;
  error: unknown;
  onSubmit: (password: string) => void;
}) {
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(password);
  };
  return (
    <form onSubmit={submit} className="card">
      {intro}
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="password"
        autoComplete="new-password"
        required
        minLength={12}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <button type="submit" disabled={pending}>
        Wachtwoord instellen
      </button>
      <ErrorText error={error} />
    </form>
  );
}
