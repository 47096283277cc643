import type { CommitmentRecord, ConditionsSnapshot } from '@mecha/appraisal-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planningGuidance } from './planning-guidance.js';

const owed = (options: { past: boolean; line?: boolean; age?: number }): CommitmentRecord => ({
  owed: true,
  id: 'd-1',
  age_ms: options.age ?? 90_000_000,
  patience_ms: 3_600_000,
  patience_source: 'setpoint',
  past_patience: options.past,
  guilt: 0.42,
  ...(options.line === false ? {} : { line: { id: 'replies', rank: 1 } }),
});

const outbox = (items: CommitmentRecord[]): ConditionsSnapshot => ({
  commitments: { outbox: { items, complete: true } },
  anticipated_guilt: 0.42,
});

describe('planningGuidance', () => {
  it('asks for a review when a commitment a charter line weighs is past its patience', () => {
    const guidance = planningGuidance({
      conditions: outbox([owed({ past: true })]),
      goalDrift: false,
    });
    expect(guidance?.reasons).toEqual(['commitment_past_patience']);
    expect(guidance?.text).toMatch(/review whether your plan should attend to it/);
  });

  it('writes nothing within patience, or past a patience no charter line sets', () => {
    expect(
      planningGuidance({ conditions: outbox([owed({ past: false })]), goalDrift: false }),
    ).toBeUndefined();
    expect(
      planningGuidance({
        conditions: outbox([owed({ past: true, line: false })]),
        goalDrift: false,
      }),
    ).toBeUndefined();
    expect(planningGuidance({ conditions: undefined, goalDrift: false })).toBeUndefined();
  });

  it('asks to reconcile with the confirmed goal after recorded drift', () => {
    const guidance = planningGuidance({ conditions: undefined, goalDrift: true });
    expect(guidance?.reasons).toEqual(['goal_drift']);
    expect(guidance?.text).toMatch(/reconcile your plan with the confirmed goal/);
  });

  it('never shows a number, never asks the owner, whatever the conditions', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ past: fc.boolean(), line: fc.boolean(), age: fc.nat(10 ** 9) }), {
          maxLength: 4,
        }),
        fc.boolean(),
        (items, goalDrift) => {
          const guidance = planningGuidance({ conditions: outbox(items.map(owed)), goalDrift });
          const expected = items.some((item) => item.past && item.line) || goalDrift;
          expect(guidance !== undefined).toBe(expected);
          if (guidance !== undefined) {
            expect(guidance.text).not.toMatch(/\d/);
            expect(guidance.text).not.toMatch(/\?|ask the owner|confirm with/i);
          }
        },
      ),
    );
  });
});
