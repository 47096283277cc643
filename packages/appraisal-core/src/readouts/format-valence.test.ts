import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatValence } from './format-valence.js';

describe('formatValence', () => {
  it('shows both sides, the negative with a true minus sign', () => {
    expect(formatValence({ positive: 1, negative: 0.5 })).toBe('+1.0 \u22120.5');
  });

  it('shows only the side that holds something', () => {
    expect(formatValence({ positive: 0, negative: 2 })).toBe('\u22122.0');
    expect(formatValence({ positive: 1.5, negative: 0 })).toBe('+1.5');
  });

  it('shows nothing for a silent run', () => {
    expect(formatValence({ positive: 0, negative: 0 })).toBe('');
  });

  it('trails a partial reading with an ellipsis', () => {
    expect(formatValence({ positive: 1, negative: 0.5, partial: true })).toBe(
      '+1.0 \u22120.5\u2026',
    );
    expect(formatValence({ positive: 0, negative: 1, partial: false })).toBe('\u22121.0');
  });

  it('still shows nothing for a silent run that is partial', () => {
    expect(formatValence({ positive: 0, negative: 0, partial: true })).toBe('');
  });

  it('never nets the two sides into one number', () => {
    const magnitude = fc.integer({ min: 1, max: 400 }).map((n) => n / 2);
    fc.assert(
      fc.property(magnitude, magnitude, (positive, negative) => {
        const text = formatValence({ positive, negative });
        expect(text.split(' ')).toHaveLength(2);
        expect(text).not.toContain('-');
      }),
    );
  });
});
