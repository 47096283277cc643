import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  charterLineSchema,
  charterSchema,
  invariantBreaches,
  lineIdProblem,
  lineTextProblem,
  maxLineIdLength,
} from './charter.js';
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
