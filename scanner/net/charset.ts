/** Decodes a page the way browsers pick its encoding: BOM, then the Content-Type charset, then <meta charset>. */

const BOMS: Array<[number[], string]> = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xfe, 0xff], 'utf-16be'],
  [[0xff, 0xfe], 'utf-16le'],
];

function charsetOf(contentType: string | null): string | null {
  return contentType?.match(/charset\s*=\s*["']?([\w.:-]+)/i)?.[1] ?? null;
}

/** The <meta charset> or http-equiv declaration within the first 1024 bytes (the HTML prescan window). */
function metaCharset(body: Buffer): string | null {
  const head = body.subarray(0, 1024).toString('latin1');
  return head.match(/<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i)?.[1] ?? null;
}

function decoderFor(label: string | null): InstanceType<typeof TextDecoder> | null {
  if (!label) return null;
  try {
    return new TextDecoder(label);
  } catch {
    return null;
  }
}

// Node 20's TextDecoder decodes windows-1252 (which WHATWG also uses for latin1 and iso-8859-1
// labels) as ISO-8859-1, so 0x80-0x9F come out as control characters; map those by the standard.
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';
const decodeWindows1252 = (body: Buffer) =>
  body.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);

export function decodeBody(body: Buffer, contentType: string | null): string {
  for (const [bytes, encoding] of BOMS) {
    if (bytes.every((b, i) => body[i] === b)) return new TextDecoder(encoding).decode(body);
  }
  const decoder = decoderFor(charsetOf(contentType)) ?? decoderFor(metaCharset(body)) ?? new TextDecoder('utf-8');
  return decoder.encoding === 'windows-1252' ? decodeWindows1252(body) : decoder.decode(body);
}
