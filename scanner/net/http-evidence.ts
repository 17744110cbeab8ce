// What one HTTP exchange yields; the lowest layer of the scanner's evidence types.

/** Response headers with lowercase names; every header keeps all of its values. */
export type HeaderMap = Record<string, string[]>;

export interface FetchedResponse {
  url: string;
  status: number;
  headers: HeaderMap;
  /** First bytes of the (decompressed) body, capped; what arrived when the body broke off. */
  body: Buffer;
}

export interface RedirectHop {
  url: string;
  status: number;
}

/** Answers that say the server could not serve a path now (rate limit, gateway), not whether it is there. */
export const UNAVAILABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
