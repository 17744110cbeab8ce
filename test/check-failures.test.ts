import { describe, expect, it } from 'vitest';
import { analyze, contextFor } from '../scanner/analyze.ts';
import { evidence } from './support/evidence.ts';

describe('a check that throws', () => {
  it('is listed in failed_checks and reported with its error for the log, while the other checks stand', () => {
    const reported: Array<[string, unknown]> = [];
    const broken = new Error('kapot');
    const { findings, failedChecks } = analyze(
      contextFor(evidence({ headers: { 'x-frame-options': null, 'content-security-policy': null } })),
      {
        cookies: () => {
          throw broken;
        },
        frame_options: (ctx) => [
          { type: 'x_frame_options_missing', endpoint: ctx.evidence.page!.url, actual_value: null },
        ],
      },
      (check, error) => reported.push([check, error]),
    );
    expect(failedChecks).toEqual(['cookies']);
    expect(reported).toEqual([['cookies', broken]]);
    expect(findings.map((f) => f.finding_type)).toEqual(['x_frame_options_missing']);
  });
});
