export { scanSite, SCAN_DEFAULTS, type ScanOptions, type ScanResult } from './scan.ts';
export {
  InvalidTargetError,
  ScanCancelledError,
  ScanError,
  TargetRefusedError,
} from './errors.ts';
export type { ScanFinding } from './types.ts';
export type { FindingType } from './catalog/index.ts';
export * from './vocabulary.ts';
export { CHECK_NAMES, type CheckName } from './analyze.ts';
export { recheckedBy, subjectHolds, type Coverage } from './coverage.ts';
export { TEST_NAMES, TESTS, type TestName } from './tests/registry.ts';
export type { MailRun, SmtpHostResult } from './types.ts';
export { completeSmtpPart } from './mail-servers.ts';
export { mailReport, type MailReport } from './report/mail.ts';
export { mailDomainOf } from './net/registrable-domain.ts';
export { hostKey } from './net/address-policy.ts';
export { claimCovers, NOT_PROVEN, type ControlClaim, type ProofOfControl } from './checks/proof-of-control.ts';
