import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseContextSize } from './context-size.js';

const tokens = fc.integer({ min: 256, max: 1_048_576 });

describe('chooseContextSize', () => {
  it('never goes past the trained context, and warns exactly when the asked size was over it', () => {
    fc.assert(
      fc.property(
        fc.option(tokens, { nil: undefined }),
        tokens,
        tokens,
        (asked, fallback, trained) => {
          const chosen = chooseContextSize(asked, fallback, trained);
          expect(chosen.size).toBeLessThanOrEqual(trained);
          expect(chosen.warning !== undefined).toBe(asked !== undefined && asked > trained);
          if (asked !== undefined && asked <= trained) expect(chosen.size).toBe(asked);
          if (asked !== undefined && asked > trained) expect(chosen.size).toBe(trained);
          if (asked === undefined) expect(chosen.size).toBe(Math.min(fallback, trained));
        },
      ),
    );
  });

  it('names both sizes in the warning', () => {
    expect(chooseContextSize(32_768, 8_192, 4_096).warning).toBe(
      'the context size asked for (32768 tokens) is more than the model supports (4096, the context it was trained with): 4096 is used',
    );
  });
});
