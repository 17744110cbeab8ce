/** Base of the errors a scan ends with instead of a result; messages are Dutch, for API users. */
export class ScanError extends Error {
  override name = 'ScanError';
}

/** The target is not an absolute http(s) URL the scanner may use. */
export class InvalidTargetError extends ScanError {
  override name = 'InvalidTargetError';
}

/** The target resolves to an address the scanner must not reach (SSRF guard). */
export class TargetRefusedError extends ScanError {
  override name = 'TargetRefusedError';
  readonly code = 'ERR_TARGET_REFUSED';
}

/** The caller stopped the scan before it ended (its signal aborted); nothing was scored. */
export class ScanCancelledError extends ScanError {
  override name = 'ScanCancelledError';
}

/** Finds a TargetRefusedError anywhere in an error's cause chain (got wraps lookup errors). */
export function refusalIn(error: unknown): TargetRefusedError | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof TargetRefusedError) return current;
    if ((current as { code?: string }).code === 'ERR_TARGET_REFUSED') {
      return new TargetRefusedError((current as Error).message);
    }
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
