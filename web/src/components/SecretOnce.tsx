import { CopyButton } from './CopyButton.tsx';

/** A secret shown this once, in a region named for it, with a copy button. */
export function SecretOnce({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <section aria-label={label} className="secret">
      <h2>{label}</h2>
      <p>{note}</p>
      <code>{value}</code>
      <CopyButton value={value} />
    </section>
  );
}
