// Compiled by `tsc -p .` in npm test and never run: each line below must fail to compile, which
// proves the vocabularies are typed end to end. An unused @ts-expect-error is itself an error.
import type { Insertable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FindingStatus, FindingType, Grade, Severity, WebhookEvent } from '../../domain/vocabulary.ts';
import { observe } from '../../scanner/checks/context.ts';

// @ts-expect-error a misspelled finding type
export const findingType: FindingType = 'hsts_mising';
// @ts-expect-error a check cannot report a finding type the catalog lacks
export const observation = observe('x_frame_option_missing', 'https://example.nl/');
// @ts-expect-error a misspelled grade
export const grade: Grade = 'uitstekent';
// @ts-expect-error a misspelled severity
export const severity: Severity = 'CRITICLE';
// @ts-expect-error a misspelled finding status
export const status: FindingStatus = 'RESOLVE';
// @ts-expect-error a misspelled event name
export const event: WebhookEvent = 'scan_complete';
// @ts-expect-error a stored scan cannot carry an unknown grade
export const scanGrade: Insertable<Database['scans']>['grade'] = 'F';
