import { useState } from 'react';

/** A secret shown this once, in a region named for it, with a copy button. */
export function SecretOnce({ label, value, note }: { label: string; value: string; note: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <section aria-label={label} className="secret">
      <h2>{label}</h2>
      <p>{note}</p>
      <code>{value}</code>
      <button type="button" className="secondary" onClick={() => void copy()}>
        Kopiëren
      </button>
      {copied && <span role="status">Gekopieerd.</span>}
    </section>
  );
}
