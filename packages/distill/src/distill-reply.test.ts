import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultDistillBounds, distillGrammar } from './distill-grammar.js';
import { parseDistillReply } from './distill-reply.js';

describe('parseDistillReply', () => {
  it('reads a skip', () => {
    expect(parseDistillReply('{"skip":true}')).toEqual({
      state: 'read',
      value: { skip: true, corrections: [], surprises: [] },
    });
  });

  it('reads an episode with a correction and a surprise', () => {
    const text = JSON.stringify({
      skip: false,
      episode: 'Drafted the grant reply to Priya Nair at Yale.',
      corrections: [
        { wrong: 'Priya Nair is at Brown', right: 'Priya Nair is at Yale', about: 'Priya Nair' },
      ],
      surprises: [{ about: 'grant deadline', graph_said: 'the 14th', found: 'the 9th' }],
    });
    expect(parseDistillReply(text)).toEqual({
      state: 'read',
      value: {
        skip: false,
        episode: 'Drafted the grant reply to Priya Nair at Yale.',
        corrections: [
          { wrong: 'Priya Nair is at Brown', right: 'Priya Nair is at Yale', about: 'Priya Nair' },
        ],
        surprises: [{ about: 'grant deadline', graph_said: 'the 14th', found: 'the 9th' }],
      },
    });
  });

  it('keeps the corrections of a skipped session', () => {
    const parsed = parseDistillReply(
      '{"skip":true,"corrections":[{"wrong":"the deadline is the 14th"}]}',
    );
    expect(parsed).toEqual({
      state: 'read',
      value: { skip: true, corrections: [{ wrong: 'the deadline is the 14th' }], surprises: [] },
    });
  });

  it('reads an episode of only whitespace as a skip', () => {
    expect(parseDistillReply('{"skip":false,"episode":"   "}')).toMatchObject({
      state: 'read',
      value: { skip: true },
    });
  });

  it('refuses text that is not JSON, extra keys, and strings past their bound', () => {
    expect(parseDistillReply('{"skip":')).toEqual({
      state: 'unreadable',
      reason: 'the reply is not JSON',
    });
    expect(parseDistillReply('{"skip":true,"tools":[]}').state).toBe('unreadable');
    expect(parseDistillReply('{"skip":false}').state).toBe('unreadable');
    const long = JSON.stringify({
      skip: false,
      episode: 'x'.repeat(defaultDistillBounds.episode + 1),
    });
    expect(parseDistillReply(long).state).toBe('unreadable');
    const many = JSON.stringify({
      skip: true,
      surprises: Array(4).fill({ about: 'a', graph_said: 'b', found: 'c' }),
    });
    expect(parseDistillReply(many).state).toBe('unreadable');
  });

  it('counts bounds in characters, not UTF-16 units', () => {
    const emoji = JSON.stringify({
      skip: false,
      episode: '😀'.repeat(defaultDistillBounds.episode),
    });
    expect(parseDistillReply(emoji).state).toBe('read');
  });

  it('counts a run of replacement characters (bytes that were not UTF-8) once, as the grammar did', () => {
    const about = `${'a'.repeat(defaultDistillBounds.about - 1)}\uFFFD\uFFFD\uFFFD\uFFFD`;
    expect(
      parseDistillReply(JSON.stringify({ skip: true, corrections: [{ wrong: 'w', about }] })).state,
    ).toBe('read');
    const over = `${'a'.repeat(defaultDistillBounds.about)}\uFFFD`;
    expect(
      parseDistillReply(JSON.stringify({ skip: true, corrections: [{ wrong: 'w', about: over }] }))
        .state,
    ).toBe('unreadable');
  });

  it('reads back every reply within the bounds', () => {
    const text = (most: number) => fc.string({ minLength: 1, maxLength: most, unit: 'grapheme' });
    const correction = fc.record(
      { wrong: text(8), right: text(8), about: text(6) },
      { requiredKeys: ['wrong'] },
    );
    const surprise = fc.record({ about: text(6), graph_said: text(8), found: text(8) });
    const reply = fc.record(
      {
        skip: fc.boolean(),
        episode: text(24).filter((episode) => episode.trim() !== ''),
        corrections: fc.array(correction, { maxLength: 3 }),
        surprises: fc.array(surprise, { maxLength: 2 }),
      },
      { requiredKeys: ['skip', 'episode'] },
    );
    fc.assert(
      fc.property(reply, (value) => {
        const sent = value.skip ? { ...value, episode: undefined } : value;
        const parsed = parseDistillReply(JSON.stringify(sent));
        expect(parsed.state).toBe('read');
        if (parsed.state === 'read') {
          expect(parsed.value.skip).toBe(value.skip);
          expect(parsed.value.corrections).toEqual(value.corrections ?? []);
          expect(parsed.value.surprises).toEqual(value.surprises ?? []);
        }
      }),
    );
  });
});

describe('distillGrammar', () => {
  it('bounds every string and list it allows', () => {
    const grammar = distillGrammar();
    expect(grammar).toContain(`char{1,${defaultDistillBounds.episode}}`);
    expect(grammar).toContain(`char{1,${defaultDistillBounds.belief}}`);
    expect(grammar).toContain(
      `( ws "," ws correction ){0,${defaultDistillBounds.corrections - 1}}`,
    );
    expect(grammar).toContain(`( ws "," ws surprise ){0,${defaultDistillBounds.surprises - 1}}`);
    // No unbounded repetition anywhere: every string and list has a ceiling.
    expect(grammar).not.toMatch(/[*+]/);
  });

  it('allows no list at all when a bound is zero', () => {
    expect(distillGrammar({ ...defaultDistillBounds, corrections: 0 })).toContain('"[" ws "]"');
  });
});
