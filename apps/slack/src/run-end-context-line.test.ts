import { describe, expect, it } from 'vitest';
import { runEndContextLine } from './run-end-context-line.js';

describe('runEndContextLine', () => {
  it('shows the valence alone when the label says no word', () => {
    expect(runEndContextLine({ valence: { positive: 0, negative: 0.5 }, label: 'neutral' })).toBe(
      'appraisal · \u22120.5',
    );
  });

  it('puts the label word before the valence', () => {
    expect(runEndContextLine({ valence: { positive: 0, negative: 0.5 }, label: 'anger' })).toBe(
      'appraisal · anger \u22120.5',
    );
  });

  it('posts nothing for a silent run', () => {
    expect(
      runEndContextLine({ valence: { positive: 0, negative: 0 }, label: 'neutral' }),
    ).toBeUndefined();
  });
});
