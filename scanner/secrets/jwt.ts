/**
 * A JWT in source text: three base64url parts, the first two JSON objects. `{` encodes as `e` and the
 * next character as `y` (`{"`, `{ `) or `w` (`{\n`, `{\t`, `{\r`), so a payload with whitespace starts
 * `eyAg` or `ewog`, not `eyJ`. The look-behind starts a match only where a base64url run starts, so a
 * run of dashes and letters is scanned once, not once per dash.
 */
export const JWT_PATTERN =
  /(?<![\w-])e[wy][0-9A-Za-z_-]{8,4096}\.e[wy][0-9A-Za-z_-]{8,8192}\.[0-9A-Za-z_-]{8,2048}(?![\w-])/g;

/** The claims of a JWT, read without verifying it; null when the payload is not a JSON object. */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload || payload.length > 8192) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' && !Array.isArray(claims) ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
