import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type MemorySession,
  type MemoryStores,
  memoryPorts,
  partial,
  unreadable,
} from '../../__fixtures__/memory-ports.js';
import {
  closure,
  outcome,
  parked,
  questionEnd,
  session,
  staged,
  workflow,
} from '../../__fixtures__/records.js';
import type { ClosureRecord } from '../../schemas/closures.js';
import type { OutboxRecord } from '../../schemas/outbox.js';
import type { QuestionRecord } from '../../schemas/questions.js';
import type { TranscriptEvent } from '../../schemas/transcript.js';
import type { WorkflowRecord } from '../../schemas/workflows.js';
import { examplesFor, formatCallTrace } from './planning-examples.js';
import { type SuccessesOptions, successes } from './successes.js';

const listed = [
  session('s-1', [
    {
      calls: ['fs_read', 'shell', 'shell', 'fs_write'],
      tools: ['fs_read', 'shell', 'fs_write', 'web_fetch'],
    },
  ]),
  session('s-2'),
  session('s-dev', [{ kind: 'test' }]),
  session('s-exp', [{ kind: 'experiment' }]),
  session('s-nokind', [{}], { kind: null }),
];

function read(stores: MemoryStores, options: SuccessesOptions = {}) {
  return successes(memoryPorts({ sessions: listed, ...stores }), options);
}

describe('successes: drafts the owner sent unchanged', () => {
  it('counts the owner’s own send and nothing a run’s shell or an unrecorded sender did', async () => {
    const v1: OutboxRecord = { ...outcome('d-3', 'sent_unchanged'), sender: 'unrecorded' };
    const result = await read({
      outbox: [
        staged('d-1', 's-1', { text: 'Dear Ana, the totals are attached.', tool: 'mail_send' }),
        staged('d-2', 's-1'),
        staged('d-3', 's-1'),
        outcome('d-1', 'sent_unchanged'),
        outcome('d-2', 'sent_unchanged', { sender: 'run_shell' }),
        v1,
      ],
    });
    expect(result.successes).toEqual([
      expect.objectContaining({
        kind: 'draft_sent_unchanged',
        status: 'standing',
        session_id: 's-1',
        cite: { kind: 'draft', id: 'd-1' },
      }),
    ]);
    expect(result.by_kind.draft_sent_unchanged).toBe(1);
    expect(result.exemplars).toEqual([
      {
        draft_id: 'd-1',
        session_id: 's-1',
        at: expect.any(String),
        tool: 'mail_send',
        taint: 'clean',
        text: 'Dear Ana, the totals are attached.',
        served: false,
      },
    ]);
  });

  it('lets the draft’s first verdict decide', async () => {
    const result = await read({
      outbox: [
        staged('d-1', 's-1'),
        outcome('d-1', 'rejected', { at: 2 }),
        outcome('d-1', 'sent_unchanged', { at: 3 }),
      ],
    });
    expect(result.successes).toEqual([]);
  });

  it('lists a send whose draft has no staging record as unknown', async () => {
    const result = await read({ outbox: [outcome('d-9', 'sent_unchanged')] });
    expect(result.successes).toEqual([
      expect.objectContaining({
        status: 'unknown',
        unknown_reason: 'draft_unstaged',
        session_id: null,
      }),
    ]);
    expect(result).toMatchObject({ standing: 0, unknown: 1, exemplars: [] });
  });
});

describe('successes: tasks closed done', () => {
  it('credits every session the closure names', async () => {
    const result = await read({ closures: [closure('c-1', 'task-1', 'done', ['s-1', 's-2'])] });
    expect(result.successes.map((s) => [s.session_id, s.status, s.goal])).toEqual([
      ['s-1', 'standing', { kind: 'task', id: 'task-1' }],
      ['s-2', 'standing', { kind: 'task', id: 'task-1' }],
    ]);
    expect(result.by_kind.task_closed_done).toBe(2);
  });

  it('lists a success withdrawn by a later reopen beside the reopen that took it back', async () => {
    const result = await read({
      closures: [
        closure('c-1', 'task-1', 'done', ['s-1'], { at: 3 }),
        closure('c-2', 'task-1', 'next', ['s-1'], { at: 900, from: 'done', reopens: 'c-1' }),
      ],
    });
    expect(result.successes).toEqual([
      expect.objectContaining({
        status: 'withdrawn',
        withdrawn_by: { kind: 'closure', id: 'c-2', at: expect.any(String) },
      }),
    ]);
    expect(result).toMatchObject({ standing: 0, withdrawn: 1 });
  });

  it('never counts a closure by someone it cannot identify, or a dropped task', async () => {
    const result = await read({
      closures: [
        closure('c-1', 'task-1', 'done', ['s-1'], { who: 'unknown' }),
        closure('c-2', 'task-2', 'dropped', ['s-1']),
      ],
    });
    expect(result.successes).toEqual([
      expect.objectContaining({ status: 'unknown', unknown_reason: 'closed_by_unknown' }),
    ]);
    expect(result).toMatchObject({ standing: 0, unknown: 1 });
  });

  it('lists a success whose session is gone, or whose kind cannot be read, as unknown', async () => {
    const result = await read({
      closures: [closure('c-1', 'task-1', 'done', ['s-gone', 's-nokind'])],
    });
    expect(result.successes.map((s) => s.unknown_reason)).toEqual([
      'session_gone',
      'session_kind_unknown',
    ]);
    expect(result.unknown).toBe(2);
  });

  it('hides development sessions and counts them, unless tests are included', async () => {
    const stores = { closures: [closure('c-1', 'task-1', 'done', ['s-dev', 's-exp'])] };
    expect(await read(stores)).toMatchObject({ standing: 0, hidden: 2 });
    expect(await read(stores, { includeTests: true })).toMatchObject({ standing: 1, hidden: 1 });
  });
});

describe('successes: workflows closed after their check passed', () => {
  it('counts a close that follows a passing check', async () => {
    const result = await read({
      workflows: [
        workflow('w-1', { type: 'started', sessionId: 's-1', taskId: 'task-1' }, 1),
        workflow('w-1', { type: 'verified', sessionId: 's-1', passed: true }, 2),
        workflow('w-1', { type: 'closed' }, 3),
      ],
    });
    expect(result.successes).toEqual([
      expect.objectContaining({
        kind: 'workflow_closed_after_check',
        status: 'standing',
        session_id: 's-1',
        goal: { kind: 'task', id: 'task-1' },
      }),
    ]);
  });

  it('does not count a close with no check, or after a check that failed last', async () => {
    const result = await read({
      workflows: [
        workflow('w-1', { type: 'started', sessionId: 's-1' }, 1),
        workflow('w-1', { type: 'closed' }, 3),
        workflow('w-2', { type: 'started', sessionId: 's-1' }, 1),
        workflow('w-2', { type: 'verified', sessionId: 's-1', passed: true }, 2),
        workflow('w-2', { type: 'verified', sessionId: 's-1', passed: false }, 3),
        workflow('w-2', { type: 'closed' }, 4),
        workflow('w-3', { type: 'closed' }, 4),
      ],
    });
    expect(result.successes).toEqual([]);
    expect(result.by_kind.workflow_closed_after_check).toBe(0);
  });

  it('withdraws the success when the workflow is reopened', async () => {
    const result = await read({
      workflows: [
        workflow('w-1', { type: 'started', sessionId: 's-1' }, 1),
        workflow('w-1', { type: 'verified', sessionId: 's-1', passed: true }, 2),
        workflow('w-1', { type: 'closed' }, 3),
        workflow('w-1', { type: 'reopened' }, 30),
      ],
    });
    expect(result.successes).toEqual([
      expect.objectContaining({
        status: 'withdrawn',
        withdrawn_by: { kind: 'workflow', id: 'w-1', at: expect.any(String) },
      }),
    ]);
  });
});

describe('successes: questions answered and the work then finished', () => {
  const resumed = session('s-q', [
    { start: 0, end: 1, stop: 'parked' },
    { start: 5, end: 6, stop: 'completed', resumed: true },
  ]);

  it('counts an answered question once a run begun after the answer completed', async () => {
    const result = await successes(
      memoryPorts({
        sessions: [resumed],
        questions: [
          parked('q-1', 's-q', { at: 1, goal: { kind: 'task', id: 'task-1' } }),
          questionEnd('q-1', 'answered', 4),
        ],
      }),
    );
    expect(result.successes).toEqual([
      expect.objectContaining({
        kind: 'question_answered_then_finished',
        status: 'standing',
        goal: { kind: 'task', id: 'task-1' },
      }),
    ]);
    expect(result.by_kind.question_answered_then_finished).toBe(1);
  });

  it('does not count an answer the work did not follow, or an abandoned question', async () => {
    const result = await successes(
      memoryPorts({
        sessions: [resumed],
        questions: [
          parked('q-1', 's-q', { at: 1 }),
          questionEnd('q-1', 'answered', 5.5),
          parked('q-2', 's-q', { at: 1 }),
          questionEnd('q-2', 'abandoned', 2),
        ],
      }),
    );
    expect(result.successes).toEqual([]);
  });

  it('lists a question whose session is gone or unreadable as unknown', async () => {
    const result = await successes(
      memoryPorts({
        sessions: [{ listing: resumed.listing, transcript: unreadable<TranscriptEvent>() }],
        questions: [
          parked('q-1', 's-q'),
          questionEnd('q-1', 'answered', 4),
          parked('q-2', 's-gone'),
          questionEnd('q-2', 'answered', 4),
        ],
      }),
    );
    expect(result.successes.map((s) => s.unknown_reason).sort()).toEqual([
      'session_gone',
      'session_unreadable',
    ]);
    expect(result.standing).toBe(0);
  });

  it('treats a torn transcript with no completion in it as unknown, and one with it as a success', async () => {
    const transcript = resumed.transcript as TranscriptEvent[];
    const torn = await successes(
      memoryPorts({
        sessions: [{ listing: resumed.listing, transcript: partial(transcript.slice(0, -1)) }],
        questions: [parked('q-1', 's-q'), questionEnd('q-1', 'answered', 4)],
      }),
    );
    expect(torn.successes[0]).toMatchObject({
      status: 'unknown',
      unknown_reason: 'session_unreadable',
    });
    const whole = await successes(
      memoryPorts({
        sessions: [{ listing: resumed.listing, transcript: partial(transcript) }],
        questions: [parked('q-1', 's-q'), questionEnd('q-1', 'answered', 4)],
      }),
    );
    expect(whole.successes[0]).toMatchObject({ status: 'standing' });
  });
});

describe('successes: unreadable stores', () => {
  it('names every store not read whole and gives null for a kind whose store is unreadable', async () => {
    const result = await read({
      outbox: unreadable<OutboxRecord>(),
      closures: partial<ClosureRecord>([closure('c-1', 'task-1', 'done', ['s-1'])]),
    });
    expect(result.partial).toBe(true);
    expect(result.unreadable).toEqual(['outbox', 'closures']);
    expect(result.by_kind).toEqual({
      draft_sent_unchanged: null,
      task_closed_done: 1,
      workflow_closed_after_check: 0,
      question_answered_then_finished: 0,
    });
    expect(result.exemplars).toBeNull();
  });

  it('gives no counts at all when the session store cannot be listed', async () => {
    const result = await successes(
      memoryPorts({
        sessions: { state: 'unreadable', reason: 'gone' },
        closures: [closure('c-1', 'task-1', 'done', ['s-1'])],
      }),
    );
    expect(result).toMatchObject({
      standing: null,
      withdrawn: null,
      unknown: null,
      hidden: null,
      partial: true,
      unreadable: ['sessions'],
    });
    expect(Object.values(result.by_kind)).toEqual([null, null, null, null]);
  });

  it.each(['outbox', 'closures', 'workflows', 'questions'] as const)(
    'never reads an unreadable %s as zero',
    async (store) => {
      const result = await read({ [store]: unreadable() });
      const kind = {
        outbox: 'draft_sent_unchanged',
        closures: 'task_closed_done',
        workflows: 'workflow_closed_after_check',
        questions: 'question_answered_then_finished',
      } as const;
      expect(result.by_kind[kind[store]]).toBeNull();
      expect(result.partial).toBe(true);
      expect(result.unreadable).toEqual([store]);
    },
  );
});

describe('successes: withdrawn by reopen (property)', () => {
  it('withdraws a closure’s success exactly when a reopen names it, and counts add up', async () => {
    const closures = fc
      .array(
        fc.record({
          to: fc.constantFrom('done' as const, 'dropped' as const),
          reopened: fc.boolean(),
          sessions: fc.subarray(['s-1', 's-2', 's-dev', 's-gone']),
          who: fc.constantFrom(
            'owner' as const,
            'agent_with_approval' as const,
            'unknown' as const,
          ),
        }),
        { maxLength: 8 },
      )
      .map((specs) =>
        specs.flatMap((spec, index): ClosureRecord[] => {
          const closed = closure(`c-${index}`, `task-${index}`, spec.to, spec.sessions, {
            at: index,
            who: spec.who,
          });
          if (!spec.reopened) return [closed];
          return [
            closed,
            closure(`r-${index}`, `task-${index}`, 'next', spec.sessions, {
              at: 100 + index,
              from: spec.to,
              reopens: `c-${index}`,
            }),
          ];
        }),
      );
    await fc.assert(
      fc.asyncProperty(closures, async (records) => {
        const result = await read({ closures: records });
        const reopened = new Set(
          records.flatMap((record) => (record.reopens === undefined ? [] : [record.reopens])),
        );
        for (const success of result.successes) {
          expect(success.withdrawn_by !== undefined).toBe(reopened.has(success.cite.id));
          if (success.status === 'withdrawn') expect(reopened.has(success.cite.id)).toBe(true);
          if (success.status === 'standing') expect(reopened.has(success.cite.id)).toBe(false);
        }
        const total =
          (result.standing ?? 0) +
          (result.withdrawn ?? 0) +
          (result.unknown ?? 0) +
          (result.hidden ?? 0);
        expect(total).toBe(result.successes.length);
        expect(result.by_kind.task_closed_done).toBe(result.standing);
      }),
    );
  });
});

describe('planning examples', () => {
  const goal = { kind: 'task' as const, id: 'task-1' };
  const withExamples = (sessions: readonly MemorySession[], stores: MemoryStores = {}) =>
    successes(memoryPorts({ sessions, ...stores }), { examples: true });

  it('lends the call trace of a clean success toward a goal, tool names only', async () => {
    const result = await withExamples(listed, {
      closures: [closure('c-1', 'task-1', 'done', ['s-1'])],
    });
    expect(result.examples).toEqual([
      {
        cite: { kind: 'closure', id: 'c-1' },
        kind: 'task_closed_done',
        session_id: 's-1',
        at: expect.any(String),
        goal,
        situations: [{ workspace: '/work/project', surface: 'cli' }],
        tools: ['fs_read', 'fs_write', 'shell', 'web_fetch'],
        trace: 'fs_read → shell ×2 → fs_write',
      },
    ]);
    expect(result.lends_none).toEqual([]);
  });

  it('says why each other success lends none', async () => {
    const sessions = [
      ...listed,
      session('s-tp', [{ calls: ['web_fetch'], taint: 'third_party' }]),
      session('s-unk', [{ calls: ['web_fetch'], taint: 'unknown' }]),
      session('s-nows', [{ calls: ['shell'], workspace: null }]),
      session('s-nocall', [{}]),
      {
        listing: {
          sessionId: 's-torn',
          startedAt: listed[0]?.listing.startedAt ?? '',
          kind: 'ordinary' as const,
          surface: 'cli',
        },
        transcript: partial<TranscriptEvent>([]),
      },
    ];
    const result = await withExamples(sessions, {
      outbox: [staged('d-1', 's-1'), outcome('d-1', 'sent_unchanged')],
      closures: [
        closure('c-tp', 'task-1', 'done', ['s-tp'], { at: 1 }),
        closure('c-unk', 'task-1', 'done', ['s-unk'], { at: 2 }),
        closure('c-nows', 'task-1', 'done', ['s-nows'], { at: 3 }),
        closure('c-nocall', 'task-1', 'done', ['s-nocall'], { at: 4 }),
        closure('c-torn', 'task-1', 'done', ['s-torn'], { at: 5 }),
        closure('c-back', 'task-1', 'done', ['s-1'], { at: 6 }),
        closure('r-back', 'task-1', 'next', ['s-1'], { at: 7, from: 'done', reopens: 'c-back' }),
      ],
    });
    expect(result.examples).toEqual([]);
    const reasons = Object.fromEntries(
      result.lends_none.map((entry) => [entry.cite.id, entry.reason]),
    );
    expect(reasons).toEqual({
      'd-1': 'not_toward_a_goal',
      'c-tp': 'read_third_party',
      'c-unk': 'taint_unknown',
      'c-nows': 'situation_unrecorded',
      'c-nocall': 'no_tool_calls',
      'c-torn': 'taint_unknown',
      'c-back': 'not_standing',
    });
  });

  it('serves an example only to a later run in the same situation with every tool it had', async () => {
    const result = await withExamples(listed, {
      closures: [closure('c-1', 'task-1', 'done', ['s-1'], { at: 3 })],
    });
    const later = {
      workspace: '/work/project',
      surface: 'cli',
      goal,
      tools: ['fs_read', 'fs_write', 'shell', 'web_fetch', 'mail_send'],
      startedAt: '2026-10-01T00:00:00Z',
    };
    expect(examplesFor(result.examples, later)).toHaveLength(1);
    const older = result.examples.map((example) => ({
      ...example,
      at: '2026-09-20T00:00:00.000Z',
    }));
    const both = examplesFor([...older, ...result.examples], later);
    expect(both.map((example) => example.at)).toEqual([
      result.examples[0]?.at,
      '2026-09-20T00:00:00.000Z',
    ]);
    expect(
      examplesFor(result.examples, { ...later, tools: ['fs_read', 'shell', 'fs_write'] }),
    ).toEqual([]);
    expect(examplesFor(result.examples, { ...later, surface: 'web' })).toEqual([]);
    expect(examplesFor(result.examples, { ...later, workspace: '/elsewhere' })).toEqual([]);
    expect(
      examplesFor(result.examples, { ...later, goal: { kind: 'task', id: 'task-2' } }),
    ).toEqual([]);
    expect(examplesFor(result.examples, { ...later, startedAt: '2026-09-25T00:00:00Z' })).toEqual(
      [],
    );
  });

  it('folds repeated calls in a trace', () => {
    expect(formatCallTrace(['fs_read', 'shell', 'shell', 'fs_write'])).toBe(
      'fs_read → shell ×2 → fs_write',
    );
    expect(formatCallTrace([])).toBe('');
    expect(formatCallTrace(['a', 'a', 'a', 'b', 'a'])).toBe('a ×3 → b → a');
  });
});

describe('successes: sources it reads', () => {
  it('reads each store once and the question’s transcript once', async () => {
    const ports = memoryPorts({
      sessions: listed,
      questions: [parked('q-1', 's-1'), questionEnd('q-1', 'answered', 0) as QuestionRecord],
      workflows: [workflow('w-1', { type: 'started', sessionId: 's-1' }) as WorkflowRecord],
      closures: [closure('c-1', 'task-1', 'done', ['s-1'])],
    });
    await successes(ports, { examples: true });
    for (const [source, count] of ports.reads) expect([source, count]).toEqual([source, 1]);
  });
});
