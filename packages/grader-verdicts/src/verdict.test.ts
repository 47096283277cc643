import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseVerdict, retryMayHelp, verdictCode, verdicts } from './verdict.js';

describe('the verdict protocol', () => {
  it('numbers the verdicts 0 to 3 in protocol order', () => {
    expect(verdicts.map(verdictCode)).toEqual([0, 1, 2, 3]);
    expect(verdictCode('ABSTAIN')).toBe(3);
  });

  it('lets only WRONG be retried', () => {
    expect(verdicts.filter(retryMayHelp)).toEqual(['WRONG']);
  });

  it('round-trips every verdict through its name', () => {
    for (const verdict of verdicts) expect(parseVerdict(verdict)).toBe(verdict);
  });

  it('reads nothing else as a verdict, not even a near miss', () => {
    expect(parseVerdict('correct')).toBeUndefined();
    expect(parseVerdict(' CORRECT')).toBeUndefined();
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!(verdicts as readonly string[]).includes(text));
        expect(parseVerdict(text)).toBeUndefined();
      }),
    );
  });
});
