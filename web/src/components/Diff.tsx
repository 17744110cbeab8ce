/** A unified diff, one line per row, added and removed lines marked in text as well as colour. */
export function Diff({ diff }: { diff: string }) {
  return (
    <pre className="diff" aria-label="Voorgestelde wijziging">
      {diff.split('\n').map((line, i) => {
        const kind =
          line.startsWith('+') && !line.startsWith('+++')
            ? 'add'
            : line.startsWith('-') && !line.startsWith('---')
              ? 'del'
              : line.startsWith('@@')
                ? 'hunk'
                : '';
        return (
          <span key={i} className={kind ? `diff-${kind}` : undefined}>
            {line}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}
