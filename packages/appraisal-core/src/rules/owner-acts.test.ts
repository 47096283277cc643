import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  closure,
  evidence,
  hour,
  outcome,
  parked,
  settled,
  staged,
  workflow,
} from '../__fixtures__/evidence-builders.js';
import type { ClosureRecord } from '../schemas/closures.js';
import type { OutboxRecord } from '../schemas/outbox.js';
import type { QuestionRecord } from '../schemas/questions.js';
import type { WorkflowRecord } from '../schemas/workflows.js';
import { signedEntries } from './contributions.js';
import { ownerActs } from './expectations.js';
import {
  type ActSources,
  isDraftAct,
  isWorkflowAct,
  type RecordedAct,
  recordedActs,
} from './owner-acts.js';

const runs = Number(process.env.MECHA_PROPERTY_RUNS ?? 300);
const sessions = ['s-1', 's-2', 's-3'] as const;
const statuses = ['inbox', 'next', 'waiting', 'done', 'dropped'] as const;

// Messy stores: repeated ids, reopens naming closures that are missing or later, verdicts by
// every sender, workflow steps in any order. `at` is filled in by the property.
const outboxRecord = fc.oneof(
  fc.record({
    type: fc.constant('staged' as const),
    draft_id: fc.constantFrom('d-1', 'd-2', 'd-3'),
    session_id: fc.constantFrom(...sessions),
  }),
  fc.record({
    type: fc.constant('outcome' as const),
    draft_id: fc.constantFrom('d-1', 'd-2', 'd-3'),
    outcome: fc.constantFrom('sent_unchanged', 'sent_edited', 'rejected', 'cancelled'),
    sender: fc.constantFrom('owner', 'run_shell', 'unrecorded'),
  }),
);
const closureRecord = fc.record({
  closure_id: fc.constantFrom('c-1', 'c-2', 'c-3', 'c-4', 'c-5'),
  from: fc.constantFrom(...statuses),
  to: fc.constantFrom(...statuses),
  sessions: fc.subarray([...sessions]),
  who: fc.constantFrom('owner', 'agent_with_approval', 'unknown'),
  reopens: fc.option(fc.constantFrom('c-1', 'c-2', 'c-3', 'c-9'), { nil: undefined }),
});
const workflowRecord = fc.record({
  workflow_id: fc.constantFrom('w-1', 'w-2'),
  type: fc.constantFrom('started', 'verified', 'closed', 'cancelled', 'reopened'),
  sessionId: fc.constantFrom(...sessions),
  passed: fc.boolean(),
});
const questionRecord = fc.record({
  question_id: fc.constantFrom('q-1', 'q-2'),
  type: fc.constantFrom('parked', 'answered', 'abandoned'),
  session_id: fc.constantFrom(...sessions),
});

/** Stores from shapes, each record at its own time (distinct across all stores when `distinct`). */
const storesArbitrary = (distinct: boolean) =>
  fc
    .record({
      outbox: fc.array(outboxRecord, { maxLength: 8 }),
      closures: fc.array(closureRecord, { maxLength: 8 }),
      workflows: fc.array(workflowRecord, { maxLength: 8 }),
      questions: fc.array(questionRecord, { maxLength: 6 }),
    })
    .chain((shape) => {
      const total =
        shape.outbox.length +
        shape.closures.length +
        shape.workflows.length +
        shape.questions.length;
      const times = distinct
        ? fc.uniqueArray(fc.integer({ min: 0, max: 400 }), { minLength: total, maxLength: total })
        : fc.array(fc.integer({ min: 0, max: 6 }), { minLength: total, maxLength: total });
      return times.map((at) => {
        let next = 0;
        const time = () => hour((at[next++] ?? 0) / 4);
        const outbox: OutboxRecord[] = shape.outbox.map((record) =>
          record.type === 'staged'
            ? {
                v: 1,
                type: 'staged',
                at: time(),
                draft_id: record.draft_id,
                session_id: record.session_id,
                tool: 'mail_send',
                taint: 'clean',
              }
            : {
                v: 2,
                type: 'outcome',
                at: time(),
                draft_id: record.draft_id,
                outcome: record.outcome,
                sender: record.sender,
              },
        );
        const closures: ClosureRecord[] = shape.closures.map((record) => ({
          ...closure(record.closure_id, record.from, record.to, {
            sessions: record.sessions,
            who: record.who,
            ...(record.reopens === undefined ? {} : { reopens: record.reopens }),
          }),
          at: time(),
        }));
        const workflows: WorkflowRecord[] = shape.workflows.map((record) => ({
          ...workflow(record.workflow_id, record.type, 0, {
            sessionId: record.sessionId,
            passed: record.passed,
          }),
          at: time(),
        }));
        const questions: QuestionRecord[] = shape.questions.map((record) =>
          record.type === 'parked'
            ? {
                v: 1,
                type: 'parked',
                at: time(),
                question_id: record.question_id,
                session_id: record.session_id,
                purpose: 'ordinary',
              }
            : { v: 1, type: record.type, at: time(), question_id: record.question_id },
        );
        return { outbox, closures, workflows, questions } satisfies ActSources;
      });
    });

function shuffled<T>(list: readonly T[], seed: number): T[] {
  const copy = [...list];
  let state = seed;
  for (let index = copy.length - 1; index > 0; index -= 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const other = state % (index + 1);
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

function idOf(record: OutboxRecord | ClosureRecord | WorkflowRecord | QuestionRecord): string {
  if ('closure_id' in record) return record.closure_id;
  if ('draft_id' in record) return record.draft_id;
  if ('workflow_id' in record) return record.workflow_id;
  return record.question_id;
}

describe('recordedActs: the owner acts, derived once', () => {
  it('cites, for every act, a record of the input that holds its id and sessions', () => {
    fc.assert(
      fc.property(storesArbitrary(false), (stores) => {
        const inputs = new Set<unknown>([
          ...stores.outbox,
          ...stores.closures,
          ...stores.workflows,
          ...stores.questions,
        ]);
        const named = new Set<string>(sessions);
        for (const act of recordedActs(stores)) {
          expect(inputs.has(act.record)).toBe(true);
          expect(idOf(act.record)).toBe(act.id);
          expect(act.at).toBe(act.record.at);
          for (const sessionId of act.session_ids) expect(named.has(sessionId)).toBe(true);
          if (act.act === 'task_reopened' && act.undoes !== undefined) {
            expect(inputs.has(act.undoes)).toBe(true);
            expect(act.record.reopens).toBe(act.undoes.closure_id);
          }
        }
      }),
      { numRuns: runs },
    );
  });

  it('does not depend on the order records with different times are stored in', () => {
    fc.assert(
      fc.property(storesArbitrary(true), fc.integer({ min: 1, max: 1_000_000 }), (stores, seed) => {
        const again: ActSources = {
          outbox: shuffled(stores.outbox, seed),
          closures: shuffled(stores.closures, seed + 1),
          workflows: shuffled(stores.workflows, seed + 2),
          questions: shuffled(stores.questions, seed + 3),
        };
        expect(recordedActs(again)).toEqual(recordedActs(stores));
      }),
      { numRuns: runs },
    );
  });

  it('is what expectations and contributions count, session by session', () => {
    fc.assert(
      fc.property(storesArbitrary(false), fc.constantFrom(...sessions), (stores, sessionId) => {
        const acts = recordedActs(stores);
        const of = (act: RecordedAct['act']) => acts.filter((each) => each.act === act);
        // Expectations: every act on drafts, tasks and workflows, in the expected-act words.
        const read = ownerActs(evidence(stores));
        expect(read.kind).toBe('acts');
        const counted = read.kind === 'acts' ? read.acts.length : -1;
        expect(counted).toBe(acts.filter((act) => !act.act.startsWith('question_')).length);
        if (read.kind === 'acts') {
          expect(read.acts.filter((act) => act.act === 'reopened').length).toBe(
            of('task_reopened').length + of('workflow_reopened').length,
          );
        }
        // Contributions: the closures and reopens that sign on this session.
        const rows = signedEntries({ ...evidence(stores), sessionId }).entries.map(
          (entry) => entry.row,
        );
        const count = (row: string) => rows.filter((each) => each === row).length;
        const onSession = (act: RecordedAct) => act.session_ids.includes(sessionId);
        expect(count('taskReopenedAfterDone')).toBe(
          acts.filter((act) => act.act === 'task_reopened' && act.from === 'done' && onSession(act))
            .length,
        );
        expect(count('taskClosedDropped')).toBe(
          of('task_dropped').filter(
            (act) => act.act === 'task_dropped' && act.withdrawn_by === undefined && onSession(act),
          ).length,
        );
      }),
      { numRuns: runs },
    );
  });
});

describe('recordedActs: one definition of a reopen', () => {
  it('reads done → dropped as a drop, and a move out of a closed status as a reopen', () => {
    const acts = recordedActs({
      closures: [
        closure('c-1', 'next', 'done', { at: 1 }),
        closure('c-2', 'done', 'dropped', { at: 2 }),
        closure('c-3', 'dropped', 'next', { at: 3 }),
        closure('c-4', 'next', 'done', { at: 4 }),
        closure('c-5', 'done', 'next', { at: 5, reopens: 'c-4' }),
      ],
    });
    expect(acts.map((act) => [act.id, act.act])).toEqual([
      ['c-1', 'task_closed'],
      ['c-2', 'task_dropped'],
      ['c-3', 'task_reopened'],
      ['c-4', 'task_closed'],
      ['c-5', 'task_reopened'],
    ]);
    const withdrawn = acts.find((act) => act.id === 'c-4');
    expect(withdrawn?.act === 'task_closed' && withdrawn.withdrawn_by?.closure_id).toBe('c-5');
  });

  it('is read the same by expectations: done → dropped is a drop (rejected), not a reopen', () => {
    const read = ownerActs(evidence({ closures: [closure('c-2', 'done', 'dropped', { at: 2 })] }));
    expect(read).toEqual({
      kind: 'acts',
      acts: [{ act: 'rejected', at: hour(2), cite: 'c-2', sure: true }],
    });
  });

  it('marks a repeated close and a reopen of an open workflow as changing nothing', () => {
    const acts = recordedActs({
      workflows: [
        workflow('w-1', 'started', 0),
        workflow('w-1', 'reopened', 1),
        workflow('w-1', 'closed', 2),
        workflow('w-1', 'closed', 3),
        workflow('w-1', 'reopened', 4),
      ],
    });
    expect(
      acts.map((act) =>
        act.act === 'workflow_reopened' || act.act === 'workflow_closed'
          ? [act.act, act.effective]
          : [],
      ),
    ).toEqual([
      ['workflow_reopened', false],
      ['workflow_closed', true],
      ['workflow_closed', false],
      ['workflow_reopened', true],
    ]);
  });

  it('leaves out a draft a run’s shell decided, and marks only the first verdict as deciding', () => {
    const acts = recordedActs({
      outbox: [
        outcome('d-1', 'sent_unchanged', 'run_shell', 1),
        outcome('d-1', 'sent_edited', 'owner', 2),
        outcome('d-2', 'rejected', 'owner', 3),
      ],
    });
    expect(
      acts.map((act) =>
        act.act.startsWith('draft_') && 'deciding' in act ? [act.id, act.deciding] : [],
      ),
    ).toEqual([
      ['d-1', false],
      ['d-2', true],
    ]);
  });
});

describe('recordedActs: one list in time order, with the sessions each act is on', () => {
  it('orders acts by time across the stores, and across workflows', () => {
    const acts = recordedActs({
      outbox: [staged('d-1'), outcome('d-1', 'sent_unchanged', 'owner', 2)],
      closures: [closure('c-1', 'next', 'done', { at: 3 })],
      // w-1 starts first but is closed last: its acts come after w-2's.
      workflows: [
        workflow('w-1', 'started', 0),
        workflow('w-2', 'started', 0.5),
        workflow('w-2', 'cancelled', 1),
        workflow('w-1', 'closed', 4),
      ],
      questions: [parked('q-1', 0), settled('q-1', 'answered', 2.5)],
    });
    expect(acts.map((act) => [act.act, act.at])).toEqual([
      ['workflow_cancelled', hour(1)],
      ['draft_sent_unchanged', hour(2)],
      ['question_answered', hour(2.5)],
      ['task_closed', hour(3)],
      ['workflow_closed', hour(4)],
    ]);
  });

  it('puts a draft’s verdict on the session that staged it, and on none when the staging is lost', () => {
    const acts = recordedActs({
      outbox: [
        staged('d-1', { sessionId: 's-2' }),
        outcome('d-1', 'rejected', 'owner', 1),
        outcome('d-9', 'sent_edited', 'owner', 2),
      ],
    });
    expect(acts.map((act) => [act.id, act.session_ids])).toEqual([
      ['d-1', ['s-2']],
      ['d-9', []],
    ]);
  });

  it('puts a question’s settlement on the session that parked it, and on none when the parking is lost', () => {
    const acts = recordedActs({
      questions: [parked('q-1', 0), settled('q-1', 'abandoned', 1), settled('q-9', 'answered', 2)],
    });
    expect(acts.map((act) => [act.id, act.session_ids])).toEqual([
      ['q-1', ['s-1']],
      ['q-9', []],
    ]);
  });

  it('tells a draft’s verdict and a workflow move from the other acts', () => {
    const acts = recordedActs({
      outbox: [outcome('d-1', 'cancelled', 'owner', 1)],
      closures: [closure('c-1', 'next', 'dropped', { at: 2 })],
      workflows: [workflow('w-1', 'started', 0), workflow('w-1', 'reopened', 3)],
      questions: [settled('q-1', 'answered', 4)],
    });
    expect(acts.map((act) => act.id)).toEqual(['d-1', 'c-1', 'w-1', 'q-1']);
    expect(acts.filter(isDraftAct).map((act) => act.id)).toEqual(['d-1']);
    expect(acts.filter(isWorkflowAct).map((act) => act.id)).toEqual(['w-1']);
  });
});

describe('recordedActs: a workflow act is checked only when it is a close', () => {
  it('marks a close after a passed check, and never a cancel or a reopen after one', () => {
    const acts = recordedActs({
      workflows: [
        workflow('w-1', 'started', 0),
        workflow('w-1', 'verified', 1, { passed: true }),
        workflow('w-1', 'cancelled', 2),
        workflow('w-1', 'reopened', 3),
        workflow('w-1', 'closed', 4),
      ],
    });
    expect(acts.map((act) => [act.act, 'checked' in act ? act.checked : undefined])).toEqual([
      ['workflow_cancelled', false],
      ['workflow_reopened', false],
      ['workflow_closed', true],
    ]);
  });
});
