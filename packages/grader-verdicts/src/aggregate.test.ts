import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  certifiedRate,
  formatTally,
  mergeTallies,
  suiteVerdict,
  tallyVerdicts,
} from './aggregate.js';
import { type Verdict, verdicts } from './verdict.js';

const verdictArb = fc.constantFrom(...verdicts);
const gradesArb = fc.array(verdictArb.map((verdict) => ({ verdict })));
const count = (list: readonly { verdict: Verdict }[], verdict: Verdict) =>
  list.filter((grade) => grade.verdict === verdict).length;

describe('aggregating verdicts', () => {
  it('never loses an ABSTAIN: its count is exactly the abstentions given', () => {
    fc.assert(
      fc.property(gradesArb, (grades) => {
        const tally = tallyVerdicts(grades);
        expect(tally.ABSTAIN).toBe(count(grades, 'ABSTAIN'));
        expect(tally.CORRECT).toBe(count(grades, 'CORRECT'));
        expect(tally.WRONG).toBe(count(grades, 'WRONG'));
        expect(tally.CORRECT + tally.WRONG + tally.UNSOUND + tally.ABSTAIN).toBe(tally.total);
        expect(tally.total).toBe(grades.length);
      }),
    );
  });

  it('merges shards into the tally of the whole', () => {
    fc.assert(
      fc.property(gradesArb, gradesArb, (left, right) => {
        expect(mergeTallies(tallyVerdicts(left), tallyVerdicts(right))).toEqual(
          tallyVerdicts([...left, ...right]),
        );
      }),
    );
  });

  it('calls a suite CORRECT only when it is non-empty and every grade is CORRECT', () => {
    fc.assert(
      fc.property(gradesArb, (grades) => {
        const verdict = suiteVerdict(tallyVerdicts(grades));
        const allCorrect = grades.length > 0 && grades.every((g) => g.verdict === 'CORRECT');
        expect(verdict === 'CORRECT').toBe(allCorrect);
        if (count(grades, 'ABSTAIN') > 0) expect(verdict).not.toBe('CORRECT');
      }),
    );
  });

  it('treats an empty oracle as ABSTAIN, never a pass', () => {
    expect(suiteVerdict(tallyVerdicts([]))).toBe('ABSTAIN');
    expect(certifiedRate(tallyVerdicts([]))).toBeNull();
  });

  it('leaves abstentions out of the certified rate, and says absent when nothing was graded', () => {
    expect(certifiedRate(tallyVerdicts([{ verdict: 'CORRECT' }, { verdict: 'ABSTAIN' }]))).toBe(1);
    expect(certifiedRate(tallyVerdicts([{ verdict: 'ABSTAIN' }]))).toBeNull();
    fc.assert(
      fc.property(gradesArb, (grades) => {
        const rate = certifiedRate(tallyVerdicts(grades));
        const graded = grades.length - count(grades, 'ABSTAIN');
        if (graded === 0) expect(rate).toBeNull();
        else expect(rate).toBe(count(grades, 'CORRECT') / graded);
      }),
    );
  });

  it('prints the tally in protocol order', () => {
    expect(formatTally(tallyVerdicts([{ verdict: 'ABSTAIN' }, { verdict: 'CORRECT' }]))).toBe(
      'CORRECT 1 · WRONG 0 · UNSOUND 0 · ABSTAIN 1',
    );
  });
});
