import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  couldNotRead,
  isComplete,
  readValue,
  recordsOf,
  type SkippedLine,
  type SourceRead,
} from './source-read.js';

const read: SourceRead<number> = { state: 'read', records: [1, 2] };
const partial: SourceRead<number> = {
  state: 'partial',
  records: [1],
  skipped: [{ file: 'outbox.jsonl', line: 2, reason: 'torn line' }],
};
const unreadable: SourceRead<number> = { state: 'unreadable', reason: 'EACCES' };

const skippedLine: fc.Arbitrary<SkippedLine> = fc.record({
  file: fc.string(),
  line: fc.nat(),
  reason: fc.string(),
});
const sourceRead: fc.Arbitrary<SourceRead<unknown>> = fc.oneof(
  fc.record({ state: fc.constant('read' as const), records: fc.array(fc.anything()) }),
  fc.record({
    state: fc.constant('partial' as const),
    records: fc.array(fc.anything()),
    skipped: fc.array(skippedLine, { minLength: 1 }),
  }),
  fc.record({ state: fc.constant('unreadable' as const), reason: fc.string() }),
);

describe('SourceRead', () => {
  it('yields the records of a read or partly read source, and nothing for an unreadable one', () => {
    expect(recordsOf(read)).toEqual([1, 2]);
    expect(recordsOf(partial)).toEqual([1]);
    expect(recordsOf(unreadable)).toBeUndefined();
  });

  it('calls only a source read whole complete', () => {
    expect([read, partial, unreadable].map(isComplete)).toEqual([true, false, false]);
  });

  it('never turns an unreadable source into records, nor a read one into absence', () => {
    fc.assert(
      fc.property(sourceRead, (source) => {
        const records = recordsOf(source);
        if (source.state === 'unreadable') expect(records).toBeUndefined();
        else expect(records).toBe(source.records);
        // Complete implies records: absent is never complete.
        if (isComplete(source)) expect(records).toBeDefined();
        expect(isComplete(source)).toBe(source.state === 'read');
      }),
    );
  });
});

describe('ValueRead', () => {
  it('carries a read value untouched and an unread one only as its reason', () => {
    fc.assert(
      fc.property(fc.anything(), fc.string(), (value, reason) => {
        expect(readValue(value)).toEqual({ state: 'read', value });
        expect(readValue(value).state === 'read' && readValue(value)).toHaveProperty('value');
        const unread = couldNotRead(reason);
        expect(unread).toEqual({ state: 'unreadable', reason });
        expect('value' in unread).toBe(false);
      }),
    );
  });
});
