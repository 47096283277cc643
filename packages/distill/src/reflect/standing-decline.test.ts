import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promptIdentity } from './lesson-prompt.js';
import { type DeclineOnRecord, type ReflectStep, standingDecline } from './reflect.js';

const stepArbitrary = fc.constantFrom<ReflectStep>('judge', 'lesson');

const declineArbitrary: fc.Arbitrary<DeclineOnRecord> = fc.record({
  step: stepArbitrary,
  outcome: fc.constantFrom('not_a_correction', 'not_grounded', 'nothing_to_learn'),
  model: fc.constantFrom('sha256:a', 'sha256:b'),
  prompt: fc.constantFrom(promptIdentity.judge, promptIdentity.lesson, 'lesson-older'),
  at: fc
    .integer({ min: 0, max: 5 })
    .map((day) => new Date(Date.UTC(2026, 8, 20 + day)).toISOString()),
});

describe('standingDecline', () => {
  it('stands only for the step under its current prompt, by the model asked (any when unknown), newest first', () => {
    fc.assert(
      fc.property(
        fc.array(declineArbitrary, { maxLength: 8 }),
        stepArbitrary,
        fc.constantFrom(undefined, 'sha256:a', 'sha256:b'),
        (declines, step, model) => {
          const standing = standingDecline(declines, step, model);
          const qualifying = declines.filter(
            (decline) =>
              decline.step === step &&
              decline.prompt === promptIdentity[step] &&
              (model === undefined || decline.model === model),
          );
          if (qualifying.length === 0) {
            expect(standing).toBeUndefined();
            return;
          }
          expect(qualifying).toContain(standing);
          const newest = Math.max(...qualifying.map((decline) => Date.parse(decline.at)));
          expect(Date.parse(standing?.at ?? '')).toBe(newest);
        },
      ),
    );
  });
});
