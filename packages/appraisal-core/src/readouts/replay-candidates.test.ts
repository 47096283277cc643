import { describe, expect, it } from 'vitest';
import { memoryPorts } from '../__fixtures__/memory-ports.js';
import { at, outcome, session, staged } from '../__fixtures__/records.js';
import { replayCandidates } from './replay-candidates.js';

const everything = { now: new Date(at(100)) } as const;

describe('replayCandidates', () => {
  const ports = () =>
    memoryPorts({
      sessions: [
        session('s-plain'),
        session('s-replies', [{ start: 1 }]),
        session('s-books', [{ start: 2 }]),
        {
          listing: { sessionId: 's-torn', startedAt: at(3), kind: 'ordinary', surface: 'cli' },
          transcript: { state: 'unreadable', reason: 'EACCES' },
        },
      ],
      charter: [
        { id: 'replies', text: 'Answer people', sensor: 'outbox_age' },
        { id: 'books', text: 'Keep the books' },
      ],
      outbox: [
        staged('d-1', 's-replies'),
        outcome('d-1', 'rejected'),
        staged('d-2', 's-books', { goal: { kind: 'charter', id: 'books' } }),
        outcome('d-2', 'sent_unchanged'),
      ],
    });

  it('orders tied sessions by the charter rank of their evidence, and names what it could not read', async () => {
    const readout = await replayCandidates(ports(), everything);
    expect(readout.candidates).toEqual([
      { session_id: 's-replies', headroom: null, charter_line: 'replies', charter_rank: 1 },
      { session_id: 's-books', headroom: null, charter_line: 'books', charter_rank: 2 },
      { session_id: 's-plain', headroom: null, charter_line: null, charter_rank: null },
    ]);
    expect(readout.unreadable).toEqual([{ session_id: 's-torn', reason: 'EACCES' }]);
    expect(readout.without_headroom).toBeNull();
  });

  it('takes only the sessions the harness gave headroom for, headroom first', async () => {
    const readout = await replayCandidates(
      ports(),
      everything,
      new Map([
        ['s-plain', 2],
        ['s-books', 1],
        ['s-replies', 1],
      ]),
    );
    expect(readout.candidates.map((row) => [row.session_id, row.headroom])).toEqual([
      ['s-plain', 2],
      ['s-replies', 1],
      ['s-books', 1],
    ]);
    expect(readout.without_headroom).toBe(1);
  });
});
