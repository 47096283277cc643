import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundTranscript } from './bound-transcript.js';

describe('boundTranscript', () => {
  it('keeps a short transcript whole', () => {
    expect(boundTranscript('hello')).toEqual({ text: 'hello', omittedCharacters: 0 });
  });

  it('keeps 6,000 characters of head and 18,000 of tail by default', () => {
    const text = `${'h'.repeat(6_000)}${'x'.repeat(100)}${'t'.repeat(18_000)}`;
    const bounded = boundTranscript(text);
    expect(bounded.omittedCharacters).toBe(100);
    expect(bounded.text.startsWith('h'.repeat(6_000))).toBe(true);
    expect(bounded.text.endsWith('t'.repeat(18_000))).toBe(true);
    expect(bounded.text).not.toContain('x');
  });

  it('never splits a character outside the basic plane', () => {
    const bounded = boundTranscript('😀'.repeat(10), { head: 3, tail: 3 });
    expect(bounded.omittedCharacters).toBe(4);
    expect(bounded.text).not.toMatch(/[\uD800-\uDFFF]/u);
  });

  it('keeps exactly head + tail characters of the original', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.nat(40),
        fc.nat(40),
        (text, head, tail) => {
          const bounded = boundTranscript(text, { head, tail });
          const length = Array.from(text).length;
          expect(bounded.omittedCharacters).toBe(Math.max(0, length - head - tail));
        },
      ),
    );
  });
});
