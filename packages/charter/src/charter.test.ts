import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  charterLineSchema,
  charterSchema,
  invariantBreaches,
  lineIdProblem,
  lineTextProblem,
  maxLineIdLength,
} from './charter.js';
import { validateCharter } from './codec.js';
import { charterArb, lineIdArb } from './test-arbitraries.js';

describe('line ids', () => {
  it('accepts lowercase words of any script, digits, "_", "-" and "."', () => {
    for (const id of [
      'replies',
      'q2.latency',
      'front-door_requests',
      '7am',
      'réponses',
      'straße',
      '回复',
      'ответы',
    ]) {
      expect(lineIdProblem(id), id).toBeUndefined();
    }
    expect(lineIdProblem('a'.repeat(maxLineIdLength))).toBeUndefined();
    expect(lineIdProblem('回'.repeat(maxLineIdLength))).toBeUndefined();
  });

  it('refuses uppercase, spaces, quotes, controls, invisible characters and a leading mark', () => {
    for (const id of [
      'Replies',
      'my line',
      '"x"',
      "it's",
      'a\nb',
      'a\u200Bb',
      'a\u202Eb',
      '.x',
      '_x',
      '-x',
      'a=b',
      'a[b]',
      '😀',
      'a\uD800',
    ]) {
      expect(lineIdProblem(id), JSON.stringify(id)).toBeDefined();
    }
  });

  it('refuses the empty id, a long one and one not in NFC', () => {
    expect(lineIdProblem('')).toBe('is empty');
    expect(lineIdProblem('a'.repeat(maxLineIdLength + 1))).toBe('is longer than 64 characters');
    expect(lineIdProblem('re\u0301ponses')).toBe('must be in Unicode normal form C (NFC)');
  });

  it('every generated id is one', () => {
    fc.assert(
      fc.property(lineIdArb, (id) => {
        expect(lineIdProblem(id)).toBeUndefined();
      }),
    );
  });
});

describe('line text', () => {
  it('is anything with something to read, newlines and quotes included', () => {
    expect(lineTextProblem('Answer people.\n"Really" — today.')).toBeUndefined();
    expect(lineTextProblem(' x ')).toBeUndefined();
  });

  it('is not empty, blank, or a lone surrogate', () => {
    expect(lineTextProblem('')).toBe('is empty');
    expect(lineTextProblem(' \n\t\u00A0')).toBe('holds only whitespace or invisible characters');
    expect(lineTextProblem('ok \uDC00')).toBe('holds a lone UTF-16 surrogate, which is not text');
  });
});

describe('charterLineSchema', () => {
  it('parses a line and freezes it', () => {
    const line = charterLineSchema.parse({ id: 'a', text: 'x', sensor: 'outbox_age', setpoint: 5 });
    expect(line).toEqual({ id: 'a', text: 'x', sensor: 'outbox_age', setpoint: 5 });
    expect(Object.isFrozen(line)).toBe(true);
  });

  it('refuses unknown fields, a weight among them', () => {
    expect(charterLineSchema.safeParse({ id: 'a', text: 'x', weight: 1 }).success).toBe(false);
  });
});

describe('charterSchema', () => {
  it('enforces unique ids and at most one line per sensor', () => {
    const duplicateIds = charterSchema.safeParse([
      { id: 'a', text: 'x' },
      { id: 'a', text: 'y' },
    ]);
    expect(duplicateIds.success).toBe(false);
    expect(duplicateIds.error?.issues[0]?.path).toEqual([1, 'id']);
    const duplicateSensors = charterSchema.safeParse([
      { id: 'a', text: 'x', sensor: 'request_closure' },
      { id: 'b', text: 'y', sensor: 'request_closure' },
    ]);
    expect(duplicateSensors.success).toBe(false);
    expect(duplicateSensors.error?.issues[0]?.path).toEqual([1, 'sensor']);
  });

  it('accepts every generated charter, and each has unique ids and sensors', () => {
    fc.assert(
      fc.property(charterArb, (charter) => {
        expect(charterSchema.safeParse(charter).success).toBe(true);
        expect(invariantBreaches(charter)).toEqual([]);
      }),
    );
  });
});

describe('a value of the wrong type is named by its kind, never echoed', () => {
  // Each kind `received` tells apart, through the in-memory charter (validateCharter), where a
  // line, its id, its text, its sensor and its setpoint are each checked for their type.
  const kinds: [unknown, string][] = [
    [null, 'null'],
    [['a'], 'a list'],
    [new Date(0), 'a date'],
    [{ a: 1 }, 'a table'],
    ['48h', 'a string'],
    [Number.NaN, 'NaN'],
    [Number.NEGATIVE_INFINITY, 'an infinite number'],
    [7, 'a number'],
    [7n, 'a number'],
    [true, 'a boolean'],
    [() => 'x', 'a function'],
    [Symbol('x'), 'a symbol'],
  ];
  const messages = (value: unknown) =>
    E.isLeft(validateCharter(value))
      ? (validateCharter(value) as E.Left<readonly { message: string }[]>).left.map(
          (issue) => issue.message,
        )
      : [];

  it('an id or a text that is not a string', () => {
    for (const [value, kind] of kinds.filter(([v]) => typeof v !== 'string')) {
      expect(messages([{ id: value, text: 'x' }])).toEqual([
        `charter line 1, id: must be a string, not ${kind}`,
      ]);
      expect(messages([{ id: 'a', text: value }])).toEqual([
        `charter line 1 "a", text: must be a string, not ${kind}`,
      ]);
    }
  });

  it('a setpoint that is not a number, and one past the largest safe whole number', () => {
    for (const [value, kind] of kinds.filter(
      ([v]) => typeof v !== 'number' && typeof v !== 'bigint',
    )) {
      expect(messages([{ id: 'a', text: 'x', setpoint: value }])).toEqual([
        `charter line 1 "a", setpoint: must be a whole number of milliseconds, not ${kind}`,
      ]);
    }
    expect(messages([{ id: 'a', text: 'x', setpoint: 2 ** 53 }])).toEqual([
      'charter line 1 "a", setpoint: must be a whole number of milliseconds',
      'charter line 1 "a", setpoint: is too long a duration',
    ]);
  });

  it('a sensor that is not a string names the sensors, not the value', () => {
    expect(messages([{ id: 'a', text: 'x', sensor: 7 }])).toEqual([
      'charter line 1 "a", sensor: must be one of outbox_age, question_latency, request_closure, not a number',
    ]);
  });

  it('a line that is not a table, null included, is one issue and never throws', () => {
    for (const [value, kind] of kinds.filter(
      ([v]) => typeof v !== 'object' || v === null || Array.isArray(v),
    )) {
      expect(messages([value])).toEqual([
        `charter line 1: must be a table with id and text, not ${kind}`,
      ]);
    }
    expect(messages([{ id: 'a', text: 'x' }, null])).toEqual([
      'charter line 2: must be a table with id and text, not null',
    ]);
  });
});

describe('breaches across lines', () => {
  it('names the earlier line by id only when its id is valid', () => {
    expect(
      invariantBreaches([
        { id: 'Bad', text: 'x', sensor: 'outbox_age' },
        { id: 'b', text: 'y', sensor: 'outbox_age' },
      ]),
    ).toEqual([{ code: 'duplicate_sensor', index: 1, field: 'sensor', firstIndex: 0 }]);
    const result = validateCharter([
      { id: 'Bad', text: 'x', sensor: 'outbox_age' },
      { id: 'b', text: 'y', sensor: 'outbox_age' },
    ]);
    expect(E.isLeft(result) && result.left.map((issue) => issue.message)).toContain(
      'charter line 2 "b", sensor: "outbox_age" is already watched by charter line 1; at most one line carries each sensor',
    );
  });

  it('two lines with the same invalid id break the id rule, not the uniqueness rule', () => {
    expect(
      invariantBreaches([
        { id: 'Bad', text: 'x' },
        { id: 'Bad', text: 'y' },
      ]),
    ).toEqual([]);
  });

  it("charterSchema's issue for a breach carries the breach itself", () => {
    const parsed = charterSchema.safeParse([
      { id: 'a', text: 'x' },
      { id: 'a', text: 'y' },
    ]);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => (issue as { params?: unknown }).params)).toEqual([
      { breach: { code: 'duplicate_id', index: 1, field: 'id', firstIndex: 0 } },
    ]);
  });
});
