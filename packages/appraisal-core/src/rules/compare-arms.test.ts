import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ArmOutcome } from '../ports/replayer.js';
import type { ComparisonArm } from '../schemas/comparisons.js';
import { comparisonVerdict, validateArm } from './compare-arms.js';

const runs = Number(process.env.MECHA_PROPERTY_RUNS ?? 1000);
const ended = (
  drafts: readonly string[],
  calls: readonly { tool: string; target?: string }[] = [],
): ArmOutcome => ({
  state: 'ended',
  stop_cause: 'completed',
  calls: [...calls],
  drafts: drafts.map((text) => ({ text })),
});
const failed: ArmOutcome = { state: 'failed', reason: 'the replayer crashed' };

describe('validateArm', () => {
  it('an arm that failed to run is ungraded, whatever was refused', () => {
    expect(validateArm({ kind: 'draft', text: 'x' }, failed)).toBe('ungraded');
    expect(validateArm({ kind: 'call', tool: 'shell' }, failed)).toBe('ungraded');
  });

  it('a draft matches the refused text whitespace aside and in any Unicode normal form', () => {
    const refused = { kind: 'draft', text: 'Dear  Sam,\n\tno. ' } as const;
    expect(validateArm(refused, ended([' Dear Sam, no.']))).toBe('did_refused');
    expect(validateArm(refused, ended(['something else', 'Dear Sam,\nno.']))).toBe('did_refused');
    expect(validateArm(refused, ended(['Dear Sam, yes.']))).toBe('did_not');
    expect(validateArm(refused, ended(['DearSam,no.']))).toBe('did_not');
    expect(validateArm(refused, ended([]))).toBe('did_not');
    // é precomposed and e + combining acute are the same text.
    expect(validateArm({ kind: 'draft', text: 'caf\u00e9' }, ended(['cafe\u0301']))).toBe(
      'did_refused',
    );
  });

  it('a call matches by tool and target, an absent target only an absent one', () => {
    const refused = { kind: 'call', tool: 'shell', target: 'rm -rf build' } as const;
    expect(validateArm(refused, ended([], [{ tool: 'shell', target: 'rm -rf build' }]))).toBe(
      'did_refused',
    );
    expect(validateArm(refused, ended([], [{ tool: 'shell', target: 'ls' }]))).toBe('did_not');
    expect(validateArm(refused, ended([], [{ tool: 'edit', target: 'rm -rf build' }]))).toBe(
      'did_not',
    );
    expect(validateArm(refused, ended([], [{ tool: 'shell' }]))).toBe('did_not');
    expect(validateArm({ kind: 'call', tool: 'shell' }, ended([], [{ tool: 'shell' }]))).toBe(
      'did_refused',
    );
    expect(
      validateArm({ kind: 'call', tool: 'shell' }, ended([], [{ tool: 'shell', target: 'ls' }])),
    ).toBe('did_not');
    // A draft with the call's text is not the call.
    expect(validateArm(refused, ended(['rm -rf build']))).toBe('did_not');
  });
});

describe('comparisonVerdict', () => {
  it('separated, tied or inconclusive by the graded arms only', () => {
    expect(comparisonVerdict(['did_refused', 'did_not'])).toBe('separated');
    expect(comparisonVerdict(['did_not', 'ungraded', 'did_refused'])).toBe('separated');
    expect(comparisonVerdict(['did_not', 'did_not'])).toBe('tied');
    expect(comparisonVerdict(['did_refused', 'did_refused', 'ungraded'])).toBe('tied');
    expect(comparisonVerdict(['did_refused', 'ungraded', 'ungraded'])).toBe('inconclusive');
    expect(comparisonVerdict(['did_not'])).toBe('inconclusive');
    expect(comparisonVerdict([])).toBe('inconclusive');
  });

  it('ungraded arms never change the verdict of two or more graded ones, and order does not matter', () => {
    const result = fc.constantFrom<ComparisonArm['result']>('did_refused', 'did_not', 'ungraded');
    fc.assert(
      fc.property(fc.array(result, { maxLength: 8 }), fc.nat(8), (results, extra) => {
        const graded = results.filter((r) => r !== 'ungraded');
        const verdict = comparisonVerdict(results);
        expect(comparisonVerdict([...results].reverse())).toBe(verdict);
        expect(comparisonVerdict([...results, ...Array(extra).fill('ungraded')])).toBe(verdict);
        if (graded.length < 2) expect(verdict).toBe('inconclusive');
        else expect(verdict).toBe(new Set(graded).size === 2 ? 'separated' : 'tied');
      }),
      { numRuns: runs },
    );
  });
});
