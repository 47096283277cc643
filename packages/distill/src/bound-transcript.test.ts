import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundTranscript, boundTranscriptInTokens } from './bound-transcript.js';

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

describe('boundTranscriptInTokens', () => {
  // A counter like a byte-level tokenizer: every UTF-8 byte is one token.
  const bytes = async (text: string) => Buffer.byteLength(text, 'utf8');

  it('leaves a transcript that fits alone', async () => {
    expect(await boundTranscriptInTokens('short', 10, bytes)).toEqual({
      text: 'short',
      omittedCharacters: 0,
      tokens: 5,
    });
  });

  it('holds the budget on CJK text, where characters undercount tokens threefold', async () => {
    const text = `开始${'会议记录'.repeat(2_000)}结束`;
    const bounded = await boundTranscriptInTokens(text, 900, bytes);
    expect(bounded.tokens).toBeLessThanOrEqual(900);
    expect(await bytes(bounded.text)).toBe(bounded.tokens);
    expect(bounded.text.startsWith('开始')).toBe(true);
    expect(bounded.text.endsWith('结束')).toBe(true);
    expect(bounded.omittedCharacters).toBeGreaterThan(7_000);
  });

  it('holds any budget for any text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 400, unit: 'binary' }),
        fc.integer({ min: 40, max: 300 }),
        async (text, budget) => {
          const bounded = await boundTranscriptInTokens(text, budget, bytes);
          expect(bounded.tokens).toBeLessThanOrEqual(
            Math.max(budget, await bytes('\n[… 400 characters omitted …]\n')),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
