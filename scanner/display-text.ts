/** Control and invisible formatting characters (Unicode Cc and Cf: bidi controls, zero-width, tags) except tab and newline. */
const INVISIBLE = /[^\P{Cc}\t\n]|\p{Cf}/gu;

/**
 * Text from a scanned site made safe to show: invisible and control characters removed, with a note
 * saying how many, and the length bounded with a visible marker.
 */
export function displayText(raw: string, max = 200): string {
  let removed = 0;
  const visible = raw.replace(INVISIBLE, () => {
    removed += 1;
    return '';
  });
  const bounded = visible.length > max ? `${visible.slice(0, max)}… [ingekort]` : visible;
  return removed > 0 ? `${bounded} [${removed} onzichtbare tekens verwijderd]` : bounded;
}
