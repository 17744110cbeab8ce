/**
 * Characters that change how text reads without being seen: Unicode tag characters (U+E0000-E007F,
 * invisible instructions), bidi controls, zero-width and other invisible formatting characters
 * (Unicode Cf: U+200B-200F, U+202A-202E, U+2060-2069, U+FEFF, U+00AD, U+180E, U+061C, ...) and
 * control characters (Cc) other than tab and newline.
 */
const INVISIBLE = /[\u{E0000}-\u{E007F}]|\p{Cf}|[^\P{Cc}\t\n]/gu;

/** The longest text from a scanned site a finding carries in one field. */
export const MAX_SITE_TEXT = 2_000;

/**
 * Text from a scanned site made safe to show to people and agents alike: invisible and control
 * characters removed, with a note saying how many, and the length bounded with a visible marker.
 * Checks judge the raw value first; this is what every output (REST, MCP, SARIF, webhooks, dashboard) gets.
 */
export function displayText(raw: string, max = MAX_SITE_TEXT): string {
  let removed = 0;
  const visible = raw.replace(INVISIBLE, () => {
    removed += 1;
    return '';
  });
  const chars = [...visible];
  const bounded =
    chars.length > max
      ? `${chars.slice(0, max).join('')}… [ingekort: ${chars.length - max} tekens weggelaten]`
      : visible;
  return removed > 0
    ? `${bounded} [${removed} ${removed === 1 ? 'onzichtbaar teken' : 'onzichtbare tekens'} verwijderd]`
    : bounded;
}
