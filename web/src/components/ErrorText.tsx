import { errorText } from '../trpc.ts';

/** A failed call's Dutch message, announced to screen readers. */
export function ErrorText({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {errorText(error)}
    </p>
  );
}
