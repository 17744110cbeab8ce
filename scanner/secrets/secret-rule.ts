import type { Severity } from '../vocabulary.ts';
import type { TokenFormat } from './token-format.ts';

/** Context a match needs: the pattern within `within` characters of it, or anywhere in the script. */
export interface Near {
  pattern: RegExp;
  within?: number;
  /** Lower-case literals one of which the pattern's match contains: a cheap test of the whole script first. */
  words?: readonly string[];
}

/** One row of the secret rule table (secret-rules.ts describes how its fields find a kind). */
export interface SecretRule {
  label: string;
  severity: Severity;
  revoke: string;
  source: string;
  keywords?: readonly string[];
  patterns?: ReadonlyArray<RegExp | { regex: RegExp; near: readonly Near[] }>;
  find?: (content: string) => Iterable<{ start: number; end: number; body?: string }>;
  /** Whether a match is this kind (a lower-case `sk_live_` is not Stripe's); one that is not may be another's. */
  valid?: (secret: string) => boolean;
  /** Whether a match was ever issued (its checksum holds): one that fails is no credential at all. */
  issued?: (secret: string) => boolean;
  near?: readonly Near[];
  entropy?: number;
  secretlint?: readonly string[];
  /** Formats as data (token-format.ts): compiled into patterns, and walked by the tests' generated corpus. */
  formats?: readonly TokenFormat[];
  /**
   * The vendor's API hosts (a suffix, or a prefix when it ends in a dot): a key-like value in a
   * credential position (Authorization, x-api-key, apiKey, token, secret) beside one is this kind.
   */
  hosts?: readonly string[];
  /**
   * Whole-value shapes of the vendor's credentials that have no prefix of their own (tokens issued
   * before the current format, the secret half of a key pair): a value in a credential position
   * beside the vendor's API host or name may have one. Never searched for on their own (a 40-hex
   * token looks like a commit hash anywhere else).
   */
  bareShapes?: readonly RegExp[];
  /** false: a value merely named after this vendor (`ALGOLIA_KEY`) is not its secret (its public keys look alike). */
  byName?: false;
  /**
   * The `body` group is the credential inside a longer match (a connection string's password): the
   * preview ends in its last characters and gives its length, not the match's.
   */
  previewBody?: boolean;
}
