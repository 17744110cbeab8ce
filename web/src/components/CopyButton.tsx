import { useState } from 'react';

/** Copies a value to the clipboard and says so. */
export function CopyButton({ value, label }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <>
      <button type="button" className="secondary" onClick={() => void copy()} aria-label={label}>
        Kopiëren
      </button>
      {copied && <span role="status">Gekopieerd.</span>}
    </>
  );
}
