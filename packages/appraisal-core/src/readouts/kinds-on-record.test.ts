import { describe, expect, it } from 'vitest';
import { memoryPorts } from '../__fixtures__/memory-ports.js';
import type { SessionListing } from '../ports/appraisal-ports.js';
import { kindsOnRecord } from './session-list.js';

const listed = (sessionId: string, surface?: string): SessionListing => ({
  sessionId,
  startedAt: '2026-10-01T00:00:00Z',
  kind: 'ordinary',
  ...(surface === undefined ? {} : { surface }),
});

describe('kindsOnRecord', () => {
  it('lists every recorded surface once, with the development kinds, sorted', async () => {
    const ports = memoryPorts({
      sessions: [
        { listing: listed('s-1', 'web'), transcript: [] },
        { listing: listed('s-2', 'tui'), transcript: [] },
        { listing: listed('s-3', 'web'), transcript: [] },
        { listing: listed('s-4'), transcript: [] },
      ],
    });
    expect(await kindsOnRecord(ports.sessions)).toEqual({
      state: 'read',
      records: ['experiment', 'test', 'tui', 'web'],
    });
  });

  it('is unreadable, not an empty list, when the session store cannot be listed', async () => {
    const ports = memoryPorts({ sessions: { state: 'unreadable', reason: 'EACCES' } });
    expect(await kindsOnRecord(ports.sessions)).toEqual({ state: 'unreadable', reason: 'EACCES' });
  });
});
