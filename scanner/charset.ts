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

export function decodeBody(body: Buffer, contentType: string | null): string {
  for (const [bytes, encoding] of BOMS) {
    if (bytes.every((b, i) => body[i] === b)) return new TextDecoder(encoding).decode(body);
  }
  const decoder = decoderFor(charsetOf(contentType)) ?? decoderFor(metaCharset(body)) ?? new TextDecoder('utf-8');
  return decoder.decode(body);
}
