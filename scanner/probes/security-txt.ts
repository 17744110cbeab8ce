// RFC 9116 security.txt: the fields a file has, read the way the RFC's ABNF defines them. A PGP
// cleartext-signed file (RFC 4880 section 7) is read from its signed text.

/** The RFC's fields; a text without any of them is not a security.txt (a soft 404, an error page). */
export const SECURITY_TXT_FIELDS = [
  'acknowledgments',
  'canonical',
  'contact',
  'encryption',
  'expires',
  'hiring',
  'policy',
  'preferred-languages',
  'csaf',
] as const;

export interface SecurityTxt {
  /** Values by lowercase field name, in file order. */
  fields: Map<string, string[]>;
  signed: boolean;
}

const SIGNED_START = '-----BEGIN PGP SIGNED MESSAGE-----';
const SIGNATURE_START = '-----BEGIN PGP SIGNATURE-----';

/** The text a cleartext signature covers: after the armor headers, up to the signature, dash-escaping undone. */
function signedText(lines: string[]): string[] {
  const begin = lines.indexOf(SIGNED_START);
  let at = begin + 1;
  while (at < lines.length && lines[at] !== '') at++;
  const end = lines.indexOf(SIGNATURE_START, at);
  return lines
    .slice(at + 1, end === -1 ? lines.length : end)
    .map((line) => (line.startsWith('- ') ? line.slice(2) : line));
}

export function parseSecurityTxt(text: string): SecurityTxt {
  let lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const signed = lines.some((line) => line.trim() === SIGNED_START);
  if (signed) lines = signedText(lines.map((line) => line.trimEnd()));
  const fields = new Map<string, string[]>();
  for (const line of lines) {
    const match = /^([A-Za-z0-9-]+):[ \t]*(.*?)\s*$/.exec(line);
    if (!match || line.startsWith('#')) continue;
    const name = match[1]!.toLowerCase();
    fields.set(name, [...(fields.get(name) ?? []), match[2]!]);
  }
  return { fields, signed };
}

export const isSecurityTxt = (file: SecurityTxt): boolean =>
  SECURITY_TXT_FIELDS.some((field) => file.fields.has(field));

/** RFC 9116 section 2.5.5: an Internet date/time of RFC 3339 ("2026-12-31T23:00:00.000Z"). */
export function parseExpires(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
