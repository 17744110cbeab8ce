/**
 * Private-key blocks in source text (RFC 7468 labels: PKCS #1, PKCS #8, SEC 1, OpenSSH; RFC 4880's
 * PGP private key block), as files or as JS strings with `\n` escapes. BEGIN and END markers are
 * found in one pass each and paired in order, so text full of BEGIN markers without an END stays
 * linear (a regex spanning the block would rescan the rest of the script from every BEGIN).
 */
const BEGIN = /-----BEGIN ((?:[A-Z0-9]{1,10} ){0,2})PRIVATE KEY( BLOCK)?-----/g;
const END = /-----END ((?:[A-Z0-9]{1,10} ){0,2})PRIVATE KEY( BLOCK)?-----/g;
const MAX_BLOCK = 16_384;
/** Armour lines a block may have besides base64: PGP's Version/Comment, PKCS #1's Proc-Type and DEK-Info. */
const ARMOUR_LINE = /(?:^|\\+n|\n)(?:Version|Comment|Proc-Type|DEK-Info|Hash|Charset):[^\n\\]*/g;

export interface PemBlock {
  start: number;
  end: number;
  /** The base64 content without line breaks or armour: what the placeholder filter judges. */
  body: string;
}

export function* findPemBlocks(content: string): Iterable<PemBlock> {
  const ends = [...content.matchAll(END)];
  let next = 0;
  for (const begin of content.matchAll(BEGIN)) {
    while (next < ends.length && ends[next]!.index < begin.index) next += 1;
    const end = ends[next];
    if (!end || end[1] !== begin[1] || end[2] !== begin[2] || end.index - begin.index > MAX_BLOCK) continue;
    const inner = content.slice(begin.index + begin[0].length, end.index).replace(ARMOUR_LINE, '');
    // A key in a JSON string inside a JS string has its line breaks escaped twice (\\n).
    const body = inner.replace(/\\+[nrt]|\s/g, '');
    // A key is base64 only; quotes or code between the markers mean two unrelated strings.
    if (body.length < 64 || !/^[A-Za-z0-9+/=]+$/.test(body)) continue;
    yield { start: begin.index, end: end.index + end[0].length, body };
  }
}
