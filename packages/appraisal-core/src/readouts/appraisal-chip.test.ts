import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelSchema } from '../schemas/goal-error.js';
import { appraisalChip } from './appraisal-chip.js';
import { formatValence } from './format-valence.js';

describe('appraisalChip', () => {
  it('puts the label word before the valence', () => {
    expect(appraisalChip({ valence: { positive: 0, negative: 0.5 }, label: 'distress' })).toEqual({
      word: 'distress',
      valence: '\u22120.5',
      text: 'distress \u22120.5',
      positive: 0,
      negative: 0.5,
      partial: false,
      tone: 'negative',
    });
  });

  it('shows the valence alone when the label is neutral', () => {
    const chip = appraisalChip({ valence: { positive: 1, negative: 0.5 }, label: 'neutral' });
    expect(chip?.word).toBeUndefined();
    expect(chip?.text).toBe('+1.0 \u22120.5');
  });

  it('reads a positive-only run as the positive tone and a partial one with its mark', () => {
    const chip = appraisalChip({ valence: { positive: 1, negative: 0, partial: true } });
    expect(chip?.tone).toBe('positive');
    expect(chip?.partial).toBe(true);
    expect(chip?.text).toBe('+1.0\u2026');
  });

  it('is absent for a silent run, partial or not, whatever the label', () => {
    expect(appraisalChip({ valence: { positive: 0, negative: 0 }, label: 'distress' })).toBe(
      undefined,
    );
    expect(appraisalChip({ valence: { positive: 0, negative: 0, partial: true } })).toBe(undefined);
  });

  it('is present exactly when something was signed, tone negative exactly when a negative was', () => {
    const magnitude = fc.constantFrom(0, 0.5, 1, 1.5, 3);
    fc.assert(
      fc.property(
        magnitude,
        magnitude,
        fc.boolean(),
        fc.constantFrom(...labelSchema.options),
        (positive, negative, partial, label) => {
          const chip = appraisalChip({ valence: { positive, negative, partial }, label });
          if (positive === 0 && negative === 0) return chip === undefined;
          return (
            chip !== undefined &&
            chip.tone === (negative > 0 ? 'negative' : 'positive') &&
            chip.text.endsWith(formatValence({ positive, negative, partial })) &&
            (label === 'neutral') === (chip.word === undefined)
          );
        },
      ),
    );
  });
});
