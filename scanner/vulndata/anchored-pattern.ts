/**
 * A regular expression from rule data run only where its longest mandatory literal occurs: the
 * literals of all patterns are found in one pass (LiteralSearch), and each expression runs on a
 * bounded window around at most MAX_WINDOWS of its literal's occurrences.
 * Script text up to 3 MiB then costs linear time whatever the pattern, as every other pattern the
 * scanner runs over site text does.
 */
export interface AnchoredPattern {
  anchor: string;
  regex: RegExp;
}

/** Characters either side of an anchor that a match may span. */
export const WINDOW = 2048;
/** Windows examined per pattern and text: a text full of the anchor is hostile or unrelated. */
export const MAX_WINDOWS = 16;
/** A shorter literal is too common in minified code to narrow anything down. */
const MIN_ANCHOR = 4;

const CLASS_ESCAPES = new Set('dDsSwWbBnrtfv0123456789xupPkc');

/**
 * The longest literal every match contains: runs of plain characters outside groups and classes, a
 * character made optional by ?, * or {0,…} left out. Null when the pattern has none long enough or
 * alternates at its top level.
 */
export function literalAnchor(source: string): string | null {
  const runs: string[] = [];
  let run = '';
  let depth = 0;
  const cut = () => {
    if (run) runs.push(run);
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    let literal: string | null = null;
    if (c === '\\') {
      const next = source[++i] ?? '';
      if (!CLASS_ESCAPES.has(next)) literal = next;
    } else if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return null;
    else if (!'.^$*+?{}|'.includes(c)) literal = c;
    const quantifier = source[i + 1];
    const optional = quantifier === '?' || quantifier === '*' || (quantifier === '{' && source[i + 2] === '0');
    if (literal !== null && depth === 0 && !optional) {
      run += literal;
      // A repeated character (x+ or x{2,}) is present, but what follows it may not be adjacent.
      if (quantifier === '+' || quantifier === '{') cut();
    } else cut();
  }
  cut();
  const best = runs.reduce((a, b) => (b.length > a.length ? b : a), '');
  return best.length >= MIN_ANCHOR ? best : null;
}

/** Compiles a pattern with its anchor; null when it has no usable anchor or does not compile. */
export function anchored(source: string, flags = ''): AnchoredPattern | null {
  const anchor = literalAnchor(source);
  if (!anchor) return null;
  try {
    return { anchor, regex: new RegExp(source, flags) };
  } catch {
    return null;
  }
}

/** The first match of the pattern in the windows around its anchor's occurrences (LiteralSearch finds them). */
export function matchInWindows(
  pattern: AnchoredPattern,
  text: string,
  hits: readonly number[],
): RegExpExecArray | null {
  for (const hit of hits) {
    const match = pattern.regex.exec(text.slice(Math.max(0, hit - WINDOW), hit + pattern.anchor.length + WINDOW));
    if (match) return match;
  }
  return null;
}
