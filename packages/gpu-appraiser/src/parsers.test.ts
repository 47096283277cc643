import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isExplicitPromise } from './explicit-promise.js';
import { type Interpretation, unknownValue, unsupportedInterpretation } from './interpretation.js';
import { isWellFormed } from './json-text.js';
import { type InterpretationCheck, parseInterpretation } from './parse-interpretation.js';
import { parseQuotes } from './parse-quotes.js';
import { lastOccurrenceHeads, quoteHeadLimit } from './quote-grammar.js';

const source = 'Bob fixed the build. He will write tests for the login task. Bob fixed it.';
const check: InterpretationCheck = {
  source,
  quotes: ['Bob fixed the build.', 'He will write tests', 'the login task'],
  taskId: 'T-1',
  taskDescriptor: 'the login task',
  correctionTargets: 1,
};
const text = (value: Partial<Interpretation>) =>
  JSON.stringify({ ...unsupportedInterpretation, ...value });
const valid: Partial<Interpretation> = {
  support: 1,
  benefit: 10,
  evidence: 'Bob fixed the build.',
};

describe('parseQuotes', () => {
  it('accepts unique exact substrings and refuses everything else', () => {
    expect(parseQuotes('["Bob fixed","the build"]', source)).toEqual({
      state: 'read',
      value: ['Bob fixed', 'the build'],
    });
    expect(parseQuotes('[]', source)).toEqual({ state: 'read', value: [] });
    expect(parseQuotes('["Bob","Bob"]', source)).toMatchObject({
      state: 'unreadable',
      reason: 'a quote is repeated',
    });
    expect(parseQuotes('["Alice"]', source)).toMatchObject({
      state: 'unreadable',
      reason: 'a quote is not an exact substring of the source',
    });
    expect(parseQuotes('[""]', source)).toMatchObject({
      state: 'unreadable',
      reason: 'a quote is empty',
    });
    expect(parseQuotes('[ "Bob"]', source)).toMatchObject({
      state: 'unreadable',
      reason: 'call 1 is not in the one JSON spelling',
    });
    expect(parseQuotes('["B","o","b","f","i","x","e","d","t"]', source)).toMatchObject({
      state: 'unreadable',
    });
    expect(parseQuotes('["Bob"', source)).toMatchObject({
      state: 'unreadable',
      reason: 'call 1 did not return JSON',
    });
  });

  it('accepts exactly the lists of unique substrings, for any source', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 9 }),
        (text, spans) => {
          const quotes = spans.map(([a, b]) => {
            const start = a % text.length;
            return text.slice(start, start + 1 + (b % (text.length - start)));
          });
          const result = parseQuotes(JSON.stringify(quotes), text);
          const wellFormed = quotes.every(isWellFormed);
          const expected =
            quotes.length <= 8 && new Set(quotes).size === quotes.length && wellFormed;
          expect(result.state === 'read').toBe(expected);
        },
      ),
    );
  });
});

describe('lastOccurrenceHeads', () => {
  it('is the fewest characters from each start that occur nowhere later (brute force)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab c]{1,60}$/), (text) => {
        const chars = Array.from(text);
        const heads = lastOccurrenceHeads(chars);
        chars.forEach((_, b) => {
          let head = 0;
          for (let length = 1; b + length <= chars.length; length += 1) {
            const part = chars.slice(b, b + length).join('');
            if (!chars.join('').includes(part, b + 1)) {
              head = length;
              break;
            }
          }
          expect(heads[b]).toBe(head <= quoteHeadLimit ? head : 0);
        });
      }),
    );
  });
});

describe('parseInterpretation', () => {
  it('accepts the support-0 answer and a supported one', () => {
    expect(parseInterpretation(text({}), check).state).toBe('read');
    expect(parseInterpretation(text(valid), check).state).toBe('read');
  });

  it.each([
    ['support 0 with a known value', { harm: 5 }],
    ['support 1 with nothing known', { support: 1, evidence: 'Bob fixed the build.' }],
    ['known without evidence', { ...valid, evidence: '' }],
    ['evidence not quoted', { ...valid, evidence: 'Bob' }],
    ['out of range', { ...valid, benefit: 1_000_001 }],
    ['consequence 5', { ...valid, consequence: 5 }],
    ['consequence unknown', { ...valid, consequence: unknownValue }],
    ['a completed act as commitment', { ...valid, commitment: 'Bob fixed the build.' }],
    ['trust without the descriptor', { ...valid, trust_gain: 5 }],
    ['a task quote that is not the descriptor', { ...valid, task: 'He will write tests' }],
    ['correction with support 0', { correction: 1 as const }],
  ])('refuses %s', (_name, value) => {
    expect(parseInterpretation(text(value as Partial<Interpretation>), check).state).toBe(
      'unreadable',
    );
  });

  it('refuses reordered, repeated, extra or spaced fields', () => {
    const good = text(valid);
    expect(parseInterpretation(good.replace('{"support":1,', '{"support":1, '), check).state).toBe(
      'unreadable',
    );
    const { support, ...rest } = { ...unsupportedInterpretation, ...valid };
    expect(parseInterpretation(JSON.stringify({ ...rest, support }), check).state).toBe(
      'unreadable',
    );
    expect(parseInterpretation(good.replace('}', ',"extra":1}'), check).state).toBe('unreadable');
    expect(parseInterpretation(good.replace('"harm"', '"benefit":1,"harm"'), check).state).toBe(
      'unreadable',
    );
  });

  it('accepts task trust only with the admitted descriptor occurring once', () => {
    const trusted = { ...valid, trust_gain: 5, task: 'the login task' };
    expect(parseInterpretation(text(trusted), check).state).toBe('read');
    const { taskId: _taskId, ...unadmitted } = check;
    expect(parseInterpretation(text(trusted), unadmitted).state).toBe('unreadable');
    expect(
      parseInterpretation(text(trusted), { ...check, source: `${source} the login task` }).state,
    ).toBe('unreadable');
  });

  it('accepts a correction only when something is eligible', () => {
    expect(parseInterpretation(text({ ...valid, correction: 1 }), check).state).toBe('read');
    expect(
      parseInterpretation(text({ ...valid, correction: 1 }), { ...check, correctionTargets: 0 })
        .state,
    ).toBe('unreadable');
  });
});

describe('isExplicitPromise', () => {
  it.each([
    ['he will write the tests', true],
    ["I'll send it Monday", true],
    ['she promised to call', true],
    ['they are going to ship it', true],
    ['Bob fixed the build', false],
    ['the willow was cut', false],
    ['Bob shipped it yesterday', false],
  ])('%s → %s', (quote, expected) => {
    expect(isExplicitPromise(quote)).toBe(expected);
  });
});
