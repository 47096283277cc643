import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultAppraisalLimits, validateAppraisalLimits } from './appraisal-limits.js';

describe('validateAppraisalLimits', () => {
  it('accepts the defaults', () => {
    expect(validateAppraisalLimits(defaultAppraisalLimits)).toEqual([]);
  });

  it('accepts 1 through 64 rows and refuses 65', () => {
    expect(validateAppraisalLimits({ ...defaultAppraisalLimits, sourceRows: 64 })).toEqual([]);
    expect(validateAppraisalLimits({ ...defaultAppraisalLimits, sourceRows: 65 })).toEqual([
      { field: 'sourceRows', message: 'sourceRows must be an integer from 1 to 64, got 65' },
    ]);
  });

  it('names every refused field at once', () => {
    const problems = validateAppraisalLimits({
      ...defaultAppraisalLimits,
      pagesPerSequence: 0,
      outputTokens: 5000,
      ticks: 1.5,
      sourceRows: 1,
      recallFloor: -1,
    });
    expect(problems.map((problem) => problem.field)).toEqual([
      'pagesPerSequence',
      'outputTokens',
      'ticks',
      'recallFloor',
    ]);
  });

  it('accepts recall floor and priority from 0 to 1,000,000 only', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 1_000_005 }), (value) => {
        const inRange = value >= 0 && value <= 1_000_000;
        for (const field of ['recallFloor', 'recallPriority'] as const) {
          const accepted =
            validateAppraisalLimits({ ...defaultAppraisalLimits, [field]: value }).length === 0;
          expect(accepted).toBe(inRange);
        }
      }),
    );
  });

  it('accepts every output-token limit from 1 to 4096 and nothing outside', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000, max: 10_000 }), (outputTokens) => {
        const accepted =
          validateAppraisalLimits({ ...defaultAppraisalLimits, outputTokens }).length === 0;
        expect(accepted).toBe(outputTokens >= 1 && outputTokens <= 4096);
      }),
    );
  });
});
