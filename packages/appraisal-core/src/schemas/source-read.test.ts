import { describe, expect, it } from 'vitest';
import { isComplete, recordsOf, type SourceRead } from './source-read.js';

const read: SourceRead<number> = { state: 'read', records: [1, 2] };
const partial: SourceRead<number> = {
  state: 'partial',
  records: [1],
  skipped: [{ file: 'outbox.jsonl', line: 2, reason: 'torn line' }],
};
const unreadable: SourceRead<number> = { state: 'unreadable', reason: 'EACCES' };

describe('SourceRead', () => {
  it('yields the records of a read or partly read source, and nothing for an unreadable one', () => {
    expect(recordsOf(read)).toEqual([1, 2]);
    expect(recordsOf(partial)).toEqual([1]);
    expect(recordsOf(unreadable)).toBeUndefined();
  });

  it('calls only a source read whole complete', () => {
    expect([read, partial, unreadable].map(isComplete)).toEqual([true, false, false]);
  });
});
