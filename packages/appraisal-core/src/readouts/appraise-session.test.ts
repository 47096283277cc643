import { describe, expect, it } from 'vitest';
import { memoryPorts, partial, unreadable } from '../__fixtures__/memory-ports.js';
import { closure, outcome, session, staged, textAppraisal } from '../__fixtures__/records.js';
import { appraiseSession } from './appraise-session.js';

const sessions = [
  session('20260925T090000-a1b2c3d4'),
  session('20260925T113100-e5f6a7b8'),
  session('20260925T113122-c9d0e1f2'),
];

describe('appraiseSession', () => {
  it('returns the session’s errors with their cites, its label and valence, and its text appraisal', async () => {
    const id = '20260925T090000-a1b2c3d4';
    const ports = memoryPorts({
      sessions,
      outbox: [staged('d-7f3e', id), outcome('d-7f3e', 'rejected', { reason: 'wrong client' })],
      closures: [closure('close-9c1d', 'task-1', 'done', [id])],
      textAppraisals: [textAppraisal('a-1', id, { at: 5 }), textAppraisal('a-2', id, { at: 9 })],
    });
    const result = await appraiseSession(ports, id);
    expect(result.state).toBe('appraised');
    if (result.state !== 'appraised') return;
    expect(result.reading.errors.map((error) => [error.channel, error.sign, error.cite])).toEqual([
      ['edit', -1, { kind: 'draft', draft_id: 'd-7f3e' }],
      ['commitment', 0.5, { kind: 'closure', closure_id: 'close-9c1d' }],
    ]);
    expect(result.reading).toMatchObject({
      label: 'distress',
      valence: { positive: 0.5, negative: 1, partial: false },
      transcriptRead: true,
    });
    expect(result.textAppraisal).toMatchObject({ state: 'found', record: { appraisal_id: 'a-2' } });
  });

  it('resolves a unique prefix, and says when a prefix is ambiguous or matches nothing', async () => {
    const ports = memoryPorts({ sessions });
    expect(await appraiseSession(ports, '20260925T0900')).toMatchObject({
      state: 'appraised',
      reading: { sessionId: '20260925T090000-a1b2c3d4' },
    });
    expect(await appraiseSession(ports, '20260925T1131')).toEqual({
      state: 'ambiguous',
      query: '20260925T1131',
      candidates: ['20260925T113100-e5f6a7b8', '20260925T113122-c9d0e1f2'],
    });
    expect(await appraiseSession(ports, 'nothing-like-it')).toEqual({
      state: 'not_found',
      query: 'nothing-like-it',
    });
  });

  it('says the text appraisal is unknown when its store cannot be read whole, and none when it has none', async () => {
    const id = '20260925T090000-a1b2c3d4';
    const none = await appraiseSession(memoryPorts({ sessions }), id);
    expect(none).toMatchObject({ textAppraisal: { state: 'none' } });
    const torn = await appraiseSession(memoryPorts({ sessions, textAppraisals: partial([]) }), id);
    expect(torn).toMatchObject({ textAppraisal: { state: 'unreadable' } });
    const gone = await appraiseSession(memoryPorts({ sessions, textAppraisals: unreadable() }), id);
    expect(gone).toMatchObject({ textAppraisal: { state: 'unreadable' } });
  });

  it('appraises by id when the session list cannot be read, marking a missing transcript', async () => {
    const ports = memoryPorts({ sessions: { state: 'unreadable', reason: 'gone' } });
    const result = await appraiseSession(ports, 's-1');
    expect(result).toMatchObject({
      state: 'appraised',
      reading: { sessionId: 's-1', transcriptRead: false, valence: { partial: true } },
    });
  });
});
