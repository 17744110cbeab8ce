/** Why a string is not a URL the platform will connect to. */
export type WebUrlProblem = 'unparsable' | 'scheme' | 'credentials';

export type WebScheme = 'http:' | 'https:';

/**
 * The one parser for URLs users hand the platform to connect to: scan targets and overrides, sites,
 * webhook receivers. Each caller words the problem for its own field.
 */
export function parseWebUrl(raw: string, schemes: readonly WebScheme[] = ['http:', 'https:']): { url: URL; problem: null } | { url: null; problem: WebUrlProblem } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { url: null, problem: 'unparsable' };
  }
  if (!schemes.some((scheme) => scheme === url.protocol)) return { url: null, problem: 'scheme' };
  if (url.username || url.password) return { url: null, problem: 'credentials' };
  return { url, problem: null };
}
