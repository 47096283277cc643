import type { CharterLine } from '@mecha/charter';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partial, unreadable } from '../__fixtures__/memory-ports.js';
import {
  at,
  closure,
  outcome,
  run,
  staged,
  task,
  textAppraisal,
  workflow,
} from '../__fixtures__/records.js';
import type { SessionEvidence } from '../ports/session-evidence.js';
import type { BoardRecord } from '../schemas/board.js';
import type { ClosureRecord } from '../schemas/closures.js';
import type { ExpectedAct } from '../schemas/learning.js';
import type { OutboxRecord } from '../schemas/outbox.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import type { WorkflowRecord } from '../schemas/workflows.js';
import {
  type ExpectationScore,
  expectationCoverage,
  hasExpectation,
  scoreExpectation,
} from './expectations.js';

const hour = 3_600_000;
const read = <T>(records: readonly T[]): SourceRead<T> => ({ state: 'read', records });

interface Scene {
  transcript?: SourceRead<TranscriptEvent>;
  outbox?: SourceRead<OutboxRecord>;
  closures?: SourceRead<ClosureRecord>;
  workflows?: SourceRead<WorkflowRecord>;
  board?: SourceRead<BoardRecord>;
}

// One session, s-1, that ran from the epoch to one hour after it.
function evidence(scene: Scene): SessionEvidence {
  return {
    sessionId: 's-1',
    transcript: scene.transcript ?? read(run('s-1', { start: 0, end: 1 })),
    outbox: scene.outbox ?? read([]),
    questions: read([]),
    requests: read([]),
    closures: scene.closures ?? read([]),
    workflows: scene.workflows ?? read([]),
    reflections: read([]),
    ownerOutcomes: read([]),
    ...(scene.board === undefined ? {} : { board: scene.board }),
  };
}

function score(
  expected: ExpectedAct,
  scene: Scene,
  options: { now?: number; timeZone?: string; charter?: SourceRead<CharterLine> } = {},
): ExpectationScore {
  const appraisal = textAppraisal('a-1', 's-1', { expected });
  if (!hasExpectation(appraisal)) throw new Error('fixture has no expectation');
  return scoreExpectation(appraisal, evidence(scene), {
    now: new Date(at(options.now ?? 1000)),
    timeZone: options.timeZone ?? 'UTC',
    charter: options.charter ?? read([]),
  });
}

const draft = (outcomes: OutboxRecord[]) => read<OutboxRecord>([staged('d-1', 's-1'), ...outcomes]);
const taskGoal = { goal: { kind: 'task' as const, id: 'task-1' } };
const taskSession = read(run('s-1', { start: 0, end: 1, ...taskGoal }));

describe('scoreExpectation: a session that staged drafts waits for the outbox patience', () => {
  it('scores the owner releasing the draft within 48 hours when no charter line sets patience', () => {
    expect(
      score('released_unchanged', {
        outbox: draft([outcome('d-1', 'sent_unchanged', { at: 48 })]),
      }),
    ).toMatchObject({
      status: 'scored',
      actual: 'released_unchanged',
      hit: true,
      deadline: at(49),
    });
  });

  it('does not count an act after the wait: the answer is no act', () => {
    expect(
      score('released_unchanged', {
        outbox: draft([outcome('d-1', 'sent_unchanged', { at: 50 })]),
      }),
    ).toMatchObject({
      status: 'scored',
      actual: 'no_act',
      hit: false,
    });
  });

  it('counts an act at the very last moment of the wait', () => {
    expect(
      score('released_unchanged', {
        outbox: draft([outcome('d-1', 'sent_unchanged', { at: 49 })]),
      }),
    ).toMatchObject({
      status: 'scored',
      actual: 'released_unchanged',
      hit: true,
      deadline: at(49),
    });
  });

  it('takes the earliest act, whatever the drafts are called', () => {
    const outbox = read<OutboxRecord>([
      staged('d-1', 's-1'),
      staged('d-2', 's-1'),
      outcome('d-2', 'rejected', { at: 2 }),
      outcome('d-1', 'sent_unchanged', { at: 3 }),
    ]);
    expect(score('rejected', { outbox })).toMatchObject({
      status: 'scored',
      actual: 'rejected',
      hit: true,
      act: { act: 'rejected', cite: 'd-2', at: at(2) },
    });
  });

  it('takes the verdict written first when two on one draft share a moment', () => {
    const outbox = draft([
      outcome('d-1', 'sent_unchanged', { at: 2 }),
      outcome('d-1', 'rejected', { at: 2 }),
    ]);
    expect(score('released_unchanged', { outbox })).toMatchObject({
      status: 'scored',
      actual: 'released_unchanged',
      hit: true,
    });
  });

  it('breaks a tie between stores as recordedActs does: a draft verdict before a closure at the same moment', () => {
    // The closure's ids sort before the draft's: the tie still goes to the draft (store order).
    const outbox = draft([outcome('d-1', 'rejected', { at: 2 })]);
    const closures = read([closure('a-0', 'a-task', 'done', ['s-1'], { at: 2 })]);
    expect(score('rejected', { outbox, closures })).toMatchObject({
      status: 'scored',
      actual: 'rejected',
      hit: true,
      act: { act: 'rejected', cite: 'd-1', at: at(2) },
    });
  });

  it('takes the patience from the charter line on outbox_age', () => {
    const charter = read<CharterLine>([
      { id: 'deep-work', text: 'Protect deep work' },
      { id: 'replies', text: 'Answer people', sensor: 'outbox_age', setpoint: 2 * hour },
    ]);
    const late = { outbox: draft([outcome('d-1', 'sent_edited', { at: 4 })]) };
    expect(score('edited', late, { charter })).toMatchObject({
      status: 'scored',
      actual: 'no_act',
      deadline: at(3),
    });
    expect(score('edited', late)).toMatchObject({ status: 'scored', actual: 'edited', hit: true });
  });

  it('uses 48 hours when the outbox line has no setpoint', () => {
    const charter = read<CharterLine>([
      { id: 'replies', text: 'Answer people', sensor: 'outbox_age' },
    ]);
    expect(score('no_act', { outbox: draft([]) }, { charter })).toMatchObject({ deadline: at(49) });
  });

  it('counts a cancelled draft as rejected', () => {
    expect(
      score('rejected', { outbox: draft([outcome('d-1', 'cancelled', { at: 3 })]) }),
    ).toMatchObject({
      status: 'scored',
      actual: 'rejected',
      hit: true,
    });
  });

  it('takes the first act and ignores a send by a run’s shell', () => {
    const outbox = read<OutboxRecord>([
      staged('d-1', 's-1'),
      staged('d-2', 's-1'),
      outcome('d-1', 'sent_unchanged', { at: 2, sender: 'run_shell' }),
      outcome('d-2', 'rejected', { at: 5 }),
      outcome('d-1', 'sent_edited', { at: 3 }),
    ]);
    expect(score('released_unchanged', { outbox })).toMatchObject({
      status: 'scored',
      actual: 'edited',
      hit: false,
      act: { act: 'edited', cite: 'd-1', at: at(3) },
    });
  });

  it('waits while the patience is still open', () => {
    expect(score('released_unchanged', { outbox: draft([]) }, { now: 10 })).toEqual({
      status: 'pending',
      expected: 'released_unchanged',
      deadline: at(49),
    });
    expect(score('no_act', { outbox: draft([]) }, { now: 49 })).toMatchObject({
      status: 'scored',
      hit: true,
    });
  });
});

describe('scoreExpectation: a task output runs to its due date', () => {
  const closedAt = (hours: number) =>
    read([closure('c-1', 'task-1', 'done', ['s-1'], { at: hours })]);

  it('counts an act late in the evening of the due date in the owner’s zone, across UTC midnight', () => {
    // Due 2026-09-26 in Los Angeles ends at 2026-09-27T06:59:59.999Z; the act is at 05:00Z.
    const actHours = (Date.parse('2026-09-27T05:00:00Z') - Date.parse(at(0))) / hour;
    const board = read<BoardRecord>([task('task-1', { due: '2026-09-26' })]);
    const scene = { transcript: taskSession, closures: closedAt(actHours), board };
    expect(score('closed', scene, { timeZone: 'America/Los_Angeles' })).toMatchObject({
      status: 'scored',
      actual: 'closed',
      hit: true,
      deadline: '2026-09-27T06:59:59.999Z',
    });
    // The same act is a day late for an owner in UTC, and later still in Tokyo.
    expect(score('closed', scene, { timeZone: 'UTC' })).toMatchObject({ actual: 'no_act' });
    expect(score('closed', scene, { timeZone: 'Asia/Tokyo' })).toMatchObject({
      actual: 'no_act',
      deadline: '2026-09-26T14:59:59.999Z',
    });
  });

  it('runs to a due timestamp as written', () => {
    const board = read<BoardRecord>([task('task-1', { due: at(10) })]);
    expect(score('no_act', { transcript: taskSession, board })).toMatchObject({
      status: 'scored',
      deadline: at(10),
    });
  });

  it('waits 48 hours when the task has no due date, or it had passed when the session ended', () => {
    const noDue = read<BoardRecord>([task('task-1')]);
    expect(score('no_act', { transcript: taskSession, board: noDue })).toMatchObject({
      deadline: at(49),
    });
    const passed = read<BoardRecord>([task('task-1', { due: '2026-09-20' })]);
    expect(score('no_act', { transcript: taskSession, board: passed })).toMatchObject({
      deadline: at(49),
    });
    const gone = read<BoardRecord>([]);
    expect(score('no_act', { transcript: taskSession, board: gone })).toMatchObject({
      deadline: at(49),
    });
  });

  it('reads the due date of the session’s own task, not of another task on the board', () => {
    const board = read<BoardRecord>([
      task('task-0', { due: at(5) }),
      task('task-1', { due: at(10) }),
      task('task-2', { due: at(20) }),
    ]);
    expect(score('no_act', { transcript: taskSession, board })).toMatchObject({
      status: 'scored',
      deadline: at(10),
    });
  });

  it('waits 48 hours when the task was due at the very moment the session ended', () => {
    // The session ends at hour 1: a due time then leaves no time to act, as if it had passed.
    const board = read<BoardRecord>([task('task-1', { due: at(1) })]);
    expect(score('no_act', { transcript: taskSession, board })).toMatchObject({
      deadline: at(49),
    });
  });

  it('finds the task from a closure naming the session when no run named it', () => {
    const board = read<BoardRecord>([task('task-1', { due: at(5) })]);
    expect(score('closed', { closures: closedAt(4), board })).toMatchObject({
      status: 'scored',
      actual: 'closed',
      deadline: at(5),
    });
  });

  it('reads a drop as rejected and a reopen as reopened', () => {
    const board = read<BoardRecord>([task('task-1')]);
    const dropped = read([closure('c-1', 'task-1', 'dropped', ['s-1'], { at: 2 })]);
    expect(score('rejected', { transcript: taskSession, closures: dropped, board })).toMatchObject({
      actual: 'rejected',
    });
    const reopened = read([
      closure('c-2', 'task-1', 'next', ['s-1'], { at: 2, from: 'done', reopens: 'c-0' }),
    ]);
    expect(score('reopened', { transcript: taskSession, closures: reopened, board })).toMatchObject(
      { actual: 'reopened', hit: true },
    );
  });

  it('leaves a task output to a reader with the board when none was read', () => {
    expect(score('closed', { transcript: taskSession })).toEqual({
      status: 'board_not_read',
      expected: 'closed',
    });
  });

  it('leaves the answer unknown when the board cannot be read, never no act', () => {
    expect(score('no_act', { transcript: taskSession, board: unreadable() })).toMatchObject({
      status: 'unknown',
      reason: 'board_unreadable',
    });
    expect(
      score('no_act', { transcript: taskSession, board: partial([task('task-1')]) }),
    ).toMatchObject({
      status: 'unknown',
      reason: 'board_unreadable',
    });
  });

  it('leaves it unknown when the owner’s zone is not one this runtime knows', () => {
    const board = read<BoardRecord>([task('task-1', { due: '2026-09-26' })]);
    expect(
      score('no_act', { transcript: taskSession, board }, { timeZone: 'Nowhere/Nothing' }),
    ).toMatchObject({
      status: 'unknown',
      reason: 'timezone_unknown',
    });
  });
});

describe('scoreExpectation: the clock starts at the later of the last line and the last run end', () => {
  it('starts at a run end stamped later than the log’s last line (a clock that went back)', () => {
    const transcript = read([
      ...run('s-1', { runId: 'r-1', start: 0, end: 5 }),
      ...run('s-1', { runId: 'r-2', start: 2, stop: null }),
    ]);
    expect(score('no_act', { transcript })).toMatchObject({ status: 'scored', deadline: at(53) });
  });

  it('does not start at a later-stamped line that is neither the last line nor a run end', () => {
    // r-1 never ended; its counter is stamped hour 7, and r-2 then ran from hour 2 to hour 3.
    const transcript = read([
      ...run('s-1', { runId: 'r-1', start: 0, end: 7, stop: null, counters: { turns: 3 } }),
      ...run('s-1', { runId: 'r-2', start: 2, end: 3 }),
    ]);
    expect(score('no_act', { transcript })).toMatchObject({ status: 'scored', deadline: at(51) });
  });
});

describe('scoreExpectation: anything else waits 48 hours', () => {
  it('scores a workflow closed within the wait', () => {
    const workflows = read([
      workflow('w-1', { type: 'started', sessionId: 's-1' }, 0),
      workflow('w-1', { type: 'closed' }, 40),
    ]);
    expect(score('closed', { workflows })).toMatchObject({
      status: 'scored',
      actual: 'closed',
      hit: true,
      deadline: at(49),
    });
  });

  it('reads a cancelled workflow as rejected and a reopened one as reopened', () => {
    const cancelled = read([
      workflow('w-1', { type: 'started', sessionId: 's-1' }, 0),
      workflow('w-1', { type: 'cancelled' }, 3),
    ]);
    expect(score('rejected', { workflows: cancelled })).toMatchObject({
      actual: 'rejected',
      hit: true,
    });
    const reopened = read([
      workflow('w-1', { type: 'started', sessionId: 's-1' }, 0),
      workflow('w-1', { type: 'reopened' }, 3),
    ]);
    expect(score('rejected', { workflows: reopened })).toMatchObject({
      actual: 'reopened',
      hit: false,
    });
  });

  it('records a wrong prediction of no act as a surprise once the wait ran out', () => {
    expect(score('closed', {})).toMatchObject({ status: 'scored', actual: 'no_act', hit: false });
  });
});

describe('scoreExpectation: an unreadable store is never read as no act', () => {
  it.each([
    ['outbox', { outbox: unreadable<OutboxRecord>() }, 'outbox_unreadable'],
    ['outbox with a torn line', { outbox: partial<OutboxRecord>([]) }, 'outbox_unreadable'],
    ['closures', { closures: unreadable<ClosureRecord>() }, 'closures_unreadable'],
    ['workflows', { workflows: partial<WorkflowRecord>([]) }, 'workflows_unreadable'],
    ['transcript', { transcript: unreadable<TranscriptEvent>() }, 'transcript_unreadable'],
    ['transcript with a torn line', { transcript: partial(run('s-1')) }, 'transcript_unreadable'],
  ] as const)('leaves it unknown when the %s cannot be read', (_, scene, reason) => {
    expect(score('no_act', scene)).toMatchObject({ status: 'unknown', reason });
  });

  it('leaves it unknown when the charter that sets the patience cannot be read', () => {
    expect(score('no_act', { outbox: draft([]) }, { charter: unreadable() })).toMatchObject({
      status: 'unknown',
      reason: 'charter_unreadable',
    });
  });

  it('leaves it unknown when the first act has no record of who did it', () => {
    const v1: OutboxRecord = {
      ...outcome('d-1', 'sent_unchanged', { at: 3 }),
      sender: 'unrecorded',
    };
    expect(score('released_unchanged', { outbox: draft([v1]) })).toMatchObject({
      status: 'unknown',
      reason: 'actor_unrecorded',
    });
    const byUnknown = read([closure('c-1', 'task-1', 'done', ['s-1'], { at: 3, who: 'unknown' })]);
    const board = read<BoardRecord>([task('task-1')]);
    expect(score('closed', { closures: byUnknown, board })).toMatchObject({
      status: 'unknown',
      reason: 'actor_unrecorded',
    });
  });
});

describe('expectationCoverage', () => {
  const statuses: fc.Arbitrary<{ score: ExpectationScore; clean: boolean }> = fc.record({
    score: fc.oneof(
      fc.record({
        status: fc.constant('scored' as const),
        expected: fc.constant('closed' as const),
        actual: fc.constantFrom('closed' as const, 'no_act' as const),
        hit: fc.boolean(),
        deadline: fc.constant(at(1)),
      }),
      fc.constant({ status: 'pending' as const, expected: 'closed' as const, deadline: at(1) }),
      fc.constant({
        status: 'unknown' as const,
        expected: 'closed' as const,
        reason: 'board_unreadable' as const,
      }),
      fc.constant({ status: 'board_not_read' as const, expected: 'closed' as const }),
    ),
    clean: fc.boolean(),
  });

  it('has a hit rate exactly when something was scored', () => {
    fc.assert(
      fc.property(fc.array(statuses, { maxLength: 30 }), (scores) => {
        const coverage = expectationCoverage(scores);
        expect(coverage.hit_rate === null).toBe(coverage.scored === 0);
        expect(coverage.scored).toBe(coverage.hits + coverage.surprises);
        expect(
          coverage.scored + coverage.pending + coverage.unknown + coverage.board_not_read,
        ).toBe(coverage.with_expectation);
        expect(coverage.clean_surprises).toBeLessThanOrEqual(coverage.surprises);
        if (coverage.hit_rate !== null)
          expect(coverage.hit_rate).toBe(coverage.hits / coverage.scored);
      }),
    );
  });

  it('counts each score under its own status, and a surprise as clean only when its appraisal is', () => {
    fc.assert(
      fc.property(fc.array(statuses, { maxLength: 30 }), (scores) => {
        const count = (test: (entry: { score: ExpectationScore; clean: boolean }) => boolean) =>
          scores.filter(test).length;
        const surprise = ({ score }: { score: ExpectationScore }) =>
          score.status === 'scored' && !score.hit;
        // The hit rate is checked by the property above.
        expect(expectationCoverage(scores)).toMatchObject({
          with_expectation: scores.length,
          scored: count(({ score }) => score.status === 'scored'),
          hits: count(({ score }) => score.status === 'scored' && score.hit),
          surprises: count(surprise),
          clean_surprises: count((entry) => surprise(entry) && entry.clean),
          pending: count(({ score }) => score.status === 'pending'),
          unknown: count(({ score }) => score.status === 'unknown'),
          board_not_read: count(({ score }) => score.status === 'board_not_read'),
        });
      }),
    );
  });

  it('reports no hit rate over nothing scored, never zero', () => {
    expect(expectationCoverage([]).hit_rate).toBeNull();
    expect(
      expectationCoverage([
        { score: { status: 'pending', expected: 'closed', deadline: at(1) }, clean: true },
      ]),
    ).toMatchObject({ pending: 1, scored: 0, hit_rate: null });
  });
});

describe('scoreExpectation: the records that set the wait', () => {
  it('reads the task row, not a project that shares its id', () => {
    const board = read<BoardRecord>([
      { v: 1, kind: 'project', id: 'task-1', title: 'A project named like the task' },
      task('task-1', { due: at(10) }),
    ]);
    expect(score('no_act', { transcript: taskSession, board })).toMatchObject({
      status: 'scored',
      deadline: at(10),
    });
  });

  it('waits for the outbox patience only when the session staged a draft, not for a verdict alone', () => {
    // A verdict on a draft this session did not stage: no charter is needed, the wait is 48 hours.
    const outbox = read<OutboxRecord>([outcome('d-9', 'rejected', { at: 2 })]);
    expect(score('no_act', { outbox }, { charter: unreadable() })).toMatchObject({
      status: 'scored',
      deadline: at(49),
    });
  });

  it('ends at its last line when a later run never ended', () => {
    const unended = run('s-1', { runId: 's-1-r2', start: 3, stop: null });
    const transcript = read([...run('s-1', { start: 0, end: 1 }), ...unended]);
    expect(unended.at(-1)?.at).toBe(at(3));
    expect(score('no_act', { transcript })).toMatchObject({ status: 'scored', deadline: at(51) });
  });
});
