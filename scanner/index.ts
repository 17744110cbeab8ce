export { scanSite, SCAN_DEFAULTS, type ScanOptions } from './scan.ts';
export { InvalidTargetError, ScanError, TargetRefusedError, TargetUnreachableError } from './errors.ts';
export type { ScanFinding, ScanResult } from './types.ts';
export * from './vocabulary.ts';
export { CHECK_NAMES, type CheckName } from './analyze.ts';
