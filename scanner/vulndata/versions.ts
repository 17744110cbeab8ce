/**
 * Version text as the scanner accepts it: two to four numbers, optionally one pre-release word
 * (1.9.0b1, 3.0.0-rc.1, 15.6.0-canary.61). A content hash, a date or a build id is never a version.
 */
// A pre-release number ends where a letter or digit would continue it: the commit hash of a canary
// build (19.3.0-canary-278794d7-20261002) is not read as its number.
export const VERSION_PATTERN = String.raw`\d{1,5}(?:\.\d{1,6}){1,3}(?:-?(?:alpha|beta|rc|pre|canary|next|dev|b)(?:[.-]?\d{1,6}(?![\da-z]))*)?`;
const STRICT = new RegExp(`^${VERSION_PATTERN}$`, 'i');

export const isVersion = (text: string): boolean => STRICT.test(text);

type Part = number | string;

/** Versions compared again and again (every range bound of the data): parsed once each. */
const parsed = new Map<string, Part[]>();
const MAX_PARSED = 20_000;

function partsOf(version: string): Part[] {
  let parts = parsed.get(version);
  if (!parts) {
    parts = (version.toLowerCase().match(/\d+|[a-z]+/g) ?? []).map((part) => (/^\d/.test(part) ? Number(part) : part));
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(version, parts);
  }
  return parts;
}

/**
 * Orders versions as semver does, and as retire.js's data expects: numbers numerically, a
 * pre-release word below the release it precedes (1.9.0b1 < 1.9.0), a further number above
 * (1.9.0.1 > 1.9.0). Negative when a < b.
 */
export function compareVersions(a: string, b: string): number {
  const x = partsOf(a);
  const y = partsOf(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i];
    const q = y[i];
    if (p === q) continue;
    // One ran out: a word after it marks a pre-release (lower), a number a later release (higher).
    if (p === undefined) return typeof q === 'string' ? 1 : -1;
    if (q === undefined) return typeof p === 'string' ? -1 : 1;
    if (typeof p === 'number' && typeof q === 'number') return p - q;
    if (typeof p === 'string' && typeof q === 'string') return p < q ? -1 : 1;
    return typeof p === 'number' ? 1 : -1;
  }
  return 0;
}

/** The release line a version belongs to: its major number, or major.minor below 1.0 (0.21.1 -> 0.21). */
export function releaseLine(version: string): string {
  const [major = '0', minor = '0'] = version.split(/[.-]/);
  return major === '0' ? `0.${minor}` : major;
}

/** WordPress's release branch: major.minor (6.1.9 -> 6.1); core backports fixes to every branch. */
export function releaseBranch(version: string): string {
  return version.split(/[.-]/).slice(0, 2).join('.');
}
