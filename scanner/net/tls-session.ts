/**
 * What a TLS session a server handed out allows, read from Node's DER session (OpenSSL's
 * SSL_SESSION_ASN1, ssl/ssl_asn1.c): `max_early_data` is field [15], written only when the server's
 * NewSessionTicket offered early data (0-RTT, RFC 8446 section 4.6.1).
 */

/** One DER element at `at`: its tag, where its content starts, and where it ends. */
function element(der: Buffer, at: number): { tag: number; start: number; end: number } | null {
  if (at + 2 > der.length) return null;
  const tag = der[at]!;
  let length = der[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4 || start + bytes > der.length) return null;
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i]!;
    start += bytes;
  }
  const end = start + length;
  return end > der.length ? null : { tag, start, end };
}

const EARLY_DATA_TAG = 0xaf; // [15] EXPLICIT, constructed
const INTEGER = 0x02;

/** The early data a session allows, in bytes; 0 when it allows none or the session cannot be read. */
export function maxEarlyData(session: Buffer): number {
  const outer = element(session, 0);
  if (outer?.tag !== 0x30) return 0;
  for (let at = outer.start; at < outer.end; ) {
    const field = element(session, at);
    if (!field) return 0;
    if (field.tag === EARLY_DATA_TAG) {
      const value = element(session, field.start);
      if (!value || value.tag !== INTEGER) return 0;
      let bytes = 0;
      for (let i = value.start; i < value.end; i++) bytes = bytes * 256 + session[i]!;
      return bytes;
    }
    at = field.end;
  }
  return 0;
}
