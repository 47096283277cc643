import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { knownBoard, knownInput } from './__fixtures__/brief.js';
import { hour } from './__fixtures__/conditions.js';
import { ownerTime } from './owner-time.js';
import { readValue } from './reading.js';
import { shouldSendBrief } from './should-send-brief.js';
import { renderBrief } from './situation-brief.js';
import { voiceState } from './voice-state.js';

describe('shouldSendBrief', () => {
  it('sends the first brief, a changed one, and the same one again after a compaction', () => {
    expect(shouldSendBrief(undefined, 'a')).toBe(true);
    expect(shouldSendBrief('a', 'a')).toBe(false);
    expect(shouldSendBrief('a', 'b')).toBe(true);
    expect(shouldSendBrief('a', 'a', { compacted: true })).toBe(true);
  });

  it('sends nothing new when only the time, a call or the server drift inside their bands', () => {
    // Friday 13:00 UTC; every moment up to 16:59 is the same "afternoon".
    const start = Date.parse('2026-09-25T13:00:00Z');
    const brief = (at: number, lastVoice: number, busy: number) =>
      renderBrief({
        ...knownInput,
        time: ownerTime(at, 'UTC', readValue(undefined)),
        voice: readValue(voiceState(lastVoice, at)),
        slots: readValue({ kind: 'local', total: 4, busy }),
      }).text;
    const first = brief(start, start, 1);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 * hour - 1 }),
        fc.integer({ min: 0, max: 5 * 60 * 1000 }),
        fc.integer({ min: 1, max: 3 }),
        (drift, sinceVoice, busy) => {
          const at = start + drift;
          expect(shouldSendBrief(first, brief(at, at - sinceVoice, busy))).toBe(false);
        },
      ),
    );
  });

  it('sends a new brief when the board changes or a task finishes', () => {
    const first = renderBrief(knownInput).text;
    const moved = renderBrief({
      ...knownInput,
      board: readValue({ ...knownBoard, overdue: [] }),
    }).text;
    const finished = renderBrief({
      ...knownInput,
      runs: readValue({ delegatedTasks: [], triggers: [] }),
    }).text;
    expect(shouldSendBrief(first, moved)).toBe(true);
    expect(shouldSendBrief(first, finished)).toBe(true);
  });
});
