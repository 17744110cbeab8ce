/** A unified diff, one line per row, added and removed lines marked in text as well as colour. */
export function Diff({ diff }: { diff: string }) {
  return (
    <figure className="diff-figure" aria-label="Voorgestelde wijziging">
      <pre className="diff">
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
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one fixed text never move; their position is their identity
            <span key={i} className={kind ? `diff-${kind}` : undefined}>
              {line}
              {'\n'}
            </span>
          );
        })}
      </pre>
    </figure>
  );
}
