import { describe, expect, it } from 'vitest';
import { memoryPorts, partial, unreadable } from '../__fixtures__/memory-ports.js';
import {
  at,
  closure,
  outcome,
  parked,
  questionEnd,
  run,
  staged,
  workflow,
} from '../__fixtures__/records.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { SessionStores } from './session-stores.js';
import { indexSessionStores, readSessionStores } from './store-index.js';

const read = <T>(records: readonly T[]): SourceRead<T> => ({ state: 'read', records });

function stores(overrides: Partial<SessionStores> = {}): SessionStores {
  return {
    outbox: read([]),
    questions: read([]),
    requests: read([]),
    closures: read([]),
    workflows: read([]),
    reflections: read([]),
    ownerOutcomes: read([]),
    ...overrides,
  };
}

describe('indexSessionStores', () => {
  it('scopes each store to the session that owns its records', () => {
    const index = indexSessionStores(
      stores({
        outbox: read([
          outcome('d-1', 'rejected'),
          staged('d-1', 's-1'),
          staged('d-2', 's-2'),
          outcome('d-9', 'sent_unchanged'),
        ]),
        questions: read([
          parked('q-1', 's-1'),
          questionEnd('q-1', 'answered'),
          questionEnd('q-9', 'answered'),
        ]),
        requests: read([
          { v: 1, type: 'received', at: at(0), request_id: 'r-1' },
          { v: 1, type: 'triaged', at: at(1), request_id: 'r-1', session_id: 's-1' },
          { v: 1, type: 'triaged', at: at(1), request_id: 'r-1', session_id: 's-2' },
          { v: 1, type: 'closed', at: at(2), request_id: 'r-1' },
        ]),
        closures: read([
          closure('c-1', 'task-1', 'done', ['s-1']),
          closure('c-2', 'task-1', 'next', ['s-2'], { from: 'done', reopens: 'c-1' }),
          closure('c-3', 'task-2', 'next', [], { from: 'done', reopens: 'c-missing' }),
        ]),
        workflows: read([
          workflow('w-1', { type: 'started', sessionId: 's-1' }),
          workflow('w-1', { type: 'verified', sessionId: 's-2', passed: false }),
          workflow('w-1', { type: 'closed' }),
          workflow('w-9', { type: 'closed' }),
        ]),
        reflections: read([
          { v: 1, reflection_id: 'rf-1', session_id: 's-2', at: at(1), clean: true },
        ]),
        ownerOutcomes: read([
          { v: 1, outcome_id: 'o-1', at: at(3), draft_id: 'd-1', session_id: 's-1', kind: 'fine' },
        ]),
      }),
    );
    const one = index.evidenceFor('s-1', read(run('s-1')));
    expect(one.outbox).toEqual(read([outcome('d-1', 'rejected'), staged('d-1', 's-1')]));
    expect(one.questions).toEqual(read([parked('q-1', 's-1'), questionEnd('q-1', 'answered')]));
    expect(one.requests.state === 'read' && one.requests.records.length).toBe(4);
    expect(one.closures.state === 'read' && one.closures.records.map((r) => r.closure_id)).toEqual([
      'c-1',
      'c-2',
    ]);
    expect(one.workflows.state === 'read' && one.workflows.records.length).toBe(3);
    expect(one.reflections).toEqual(read([]));
    expect(one.ownerOutcomes.state === 'read' && one.ownerOutcomes.records.length).toBe(1);
    const two = index.evidenceFor('s-2', read([]));
    expect(two.closures.state === 'read' && two.closures.records.map((r) => r.closure_id)).toEqual([
      'c-2',
    ]);
    expect(two.workflows.state === 'read' && two.workflows.records.length).toBe(3);
    expect(two.outbox).toEqual(read([staged('d-2', 's-2')]));
    expect(index.drafts.get('d-1')?.session_id).toBe('s-1');
    expect(index.closuresById.get('c-2')?.reopens).toBe('c-1');
  });

  it('keeps each store’s read state: unreadable stays unreadable, a torn store makes every session partial', () => {
    const index = indexSessionStores(
      stores({
        outbox: unreadable(),
        closures: partial([closure('c-1', 'task-1', 'done', ['s-1'])]),
      }),
    );
    const evidence = index.evidenceFor('s-2', read([]));
    expect(evidence.outbox.state).toBe('unreadable');
    expect(evidence.closures).toMatchObject({ state: 'partial', records: [] });
    expect(index.evidenceFor('s-1', read([])).closures).toMatchObject({
      state: 'partial',
      records: [{ closure_id: 'c-1' }],
    });
  });

  it('gives back the index already built from the same reads, and a new one when any read is new', () => {
    const first = stores({ closures: read([closure('c-1', 'task-1', 'done', ['s-1'])]) });
    const index = indexSessionStores(first);
    expect(indexSessionStores({ ...first })).toBe(index);
    const changed = { ...first, closures: read([closure('c-2', 'task-2', 'done', ['s-2'])]) };
    const again = indexSessionStores(changed);
    expect(again).not.toBe(index);
    expect(again.evidenceFor('s-2', read([])).closures.state).toBe('read');
    expect(again.closuresById.has('c-2')).toBe(true);
    expect(again.closuresById.has('c-1')).toBe(false);
  });
});

describe('readSessionStores', () => {
  it('reads every session-scoped store once', async () => {
    const ports = memoryPorts();
    await readSessionStores(ports);
    expect([...ports.reads.keys()].sort()).toEqual([
      'closures',
      'outbox',
      'ownerOutcomes',
      'questions',
      'reflections',
      'requests',
      'workflows',
    ]);
  });
});
