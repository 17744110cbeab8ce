/** Why a string is not a URL the platform will connect to. */
export type WebUrlProblem = 'unparsable' | 'scheme' | 'credentials';

export type WebScheme = 'http:' | 'https:';

/** The one Dutch wording of each problem, for every field that takes such a URL. */
export const WEB_URL_PROBLEMS: Record<WebUrlProblem, (schemes: readonly WebScheme[]) => string> = {
  unparsable: () => 'ongeldige URL.',
  scheme: (schemes) =>
    schemes.length === 1
      ? `de URL moet met ${schemes[0]}// beginnen.`
      : "alleen http:// en https:// URL's zijn toegestaan.",
  credentials: () => 'inloggegevens in de URL zijn niet toegestaan.',
};

/**
 * The one parser for URLs users hand the platform to connect to: scan targets and overrides, sites,
 * webhook receivers (the routers' webUrl schema, the scanner's own target check).
 */
export function parseWebUrl(
  raw: string,
  schemes: readonly WebScheme[] = ['http:', 'https:'],
): { url: URL; problem: null } | { url: null; problem: WebUrlProblem } {
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
