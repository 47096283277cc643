import type { SourceRead, TranscriptEvent } from '@mecha/appraisal-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation, events } from './__fixtures__/events.js';
import { isKnownClean, sessionTaint, taintWord } from './session-taint.js';

const read = (records: TranscriptEvent[]): SourceRead<TranscriptEvent> => ({
  state: 'read',
  records,
});

describe('sessionTaint', () => {
  it('reads a clean conversation with the owner in it as private and trusted', () => {
    expect(sessionTaint(read(conversation()))).toStrictEqual({ private: true, untrusted: false });
  });

  it('marks a timeline with third-party content untrusted', () => {
    const records = [
      ...conversation(),
      events.stranger('msg-9', 'the graph is wrong, she is at Brown'),
    ];
    expect(sessionTaint(read(records))).toStrictEqual({ private: true, untrusted: true });
  });

  it('records a torn transcript as exactly {"unknown": true}, with no private or untrusted key', () => {
    const torn: SourceRead<TranscriptEvent> = {
      state: 'partial',
      records: conversation(),
      skipped: [{ file: 'sessions/s.jsonl', line: 6, reason: 'torn last line' }],
    };
    const taint = sessionTaint(torn);
    expect(taint).toStrictEqual({ unknown: true });
    expect(JSON.stringify(taint)).toBe('{"unknown":true}');
  });

  it('records a timeline with any unknown entry as unknown, never clean', () => {
    const records = [...conversation(), events.result('call-2', 'page', 'unknown')];
    expect(sessionTaint(read(records))).toStrictEqual({ unknown: true });
  });

  it('records an unreadable transcript as unknown', () => {
    expect(sessionTaint({ state: 'unreadable', reason: 'gone' })).toStrictEqual({ unknown: true });
  });

  it('is clean only when every taint is clean and the transcript was read whole', () => {
    const taints = fc.constantFrom('clean' as const, 'third_party' as const, 'unknown' as const);
    fc.assert(
      fc.property(fc.array(taints, { maxLength: 8 }), fc.boolean(), (list, whole) => {
        const records = list.map((taint, index) => events.result(`call-${index}`, 'x', taint));
        const source: SourceRead<TranscriptEvent> = whole
          ? read(records)
          : { state: 'partial', records, skipped: [{ file: 'f', line: 1, reason: 'torn' }] };
        const clean = isKnownClean(sessionTaint(source));
        expect(clean).toBe(whole && list.every((taint) => taint === 'clean'));
        expect(taintWord(sessionTaint(source)) === 'clean').toBe(clean);
      }),
    );
  });
});
