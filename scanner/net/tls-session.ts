/**
 * What a TLS session a server handed out allows, read from the DER session inside Node's session
 * buffer (OpenSSL's SSL_SESSION_ASN1, ssl/ssl_asn1.c): `max_early_data` is field [15], written only when the server's
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

/**
 * The DER SSL_SESSION in a session buffer: the SEQUENCE that ends where the buffer ends. Node 20
 * hands out the DER alone; Node 22 and later put a header of their own (a name and the server name)
 * before it, which this does not read: only the part OpenSSL defines is relied on.
 */
function sessionDer(session: Buffer): Buffer | null {
  const searched = Math.min(session.length, 1024);
  for (let at = 0; at < searched; at++) {
    if (session[at] !== 0x30) continue;
    const outer = element(session, at);
    if (outer?.end === session.length) return session.subarray(at);
  }
  return null;
}

/** The early data a session allows, in bytes; 0 when it allows none or the session cannot be read. */
export function maxEarlyData(handed: Buffer): number {
  const session = sessionDer(handed);
  if (!session) return 0;
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
