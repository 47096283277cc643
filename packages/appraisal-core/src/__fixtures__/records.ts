import type { BoardTask } from '../schemas/board.js';
import type { ClosureRecord } from '../schemas/closures.js';
import type { ComparisonRecord } from '../schemas/comparisons.js';
import type { GoalRef } from '../schemas/goal-error.js';
import type { ExpectedAct, TextAppraisalRecord } from '../schemas/learning.js';
import type { DraftOutcome, DraftStaged } from '../schemas/outbox.js';
import type { Actor, Taint } from '../schemas/primitives.js';
import type { QuestionRecord } from '../schemas/questions.js';
import type { SessionKind, StopCause, TranscriptEvent } from '../schemas/transcript.js';
import type { WorkflowRecord } from '../schemas/workflows.js';
import type { MemorySession } from './memory-ports.js';

/** The fixed moment every fixture counts from: 2026-09-25 09:00 UTC. */
export const epoch = Date.parse('2026-09-25T09:00:00Z');

const stamps = new Map<number, string>();

/** A timestamp `hours` after the fixture epoch (negative for before). */
export function at(hours: number): string {
  let stamp = stamps.get(hours);
  if (stamp === undefined) {
    stamp = new Date(epoch + hours * 3_600_000).toISOString();
    stamps.set(hours, stamp);
  }
  return stamp;
}

/** What a fixture run does between its start and its end. */
export interface RunSpec {
  readonly runId?: string;
  readonly start?: number;
  readonly end?: number;
  readonly surface?: string;
  readonly kind?: SessionKind;
  readonly workspace?: string | null;
  readonly goal?: GoalRef;
  readonly tools?: readonly string[];
  readonly calls?: readonly string[];
  readonly taint?: Taint;
  readonly stop?: StopCause | null;
  readonly resumed?: boolean;
  readonly counters?: Readonly<Record<string, number>>;
  readonly extra?: readonly TranscriptEvent[];
}

/** The events of one run: start, owner message, tool calls and results, counters, end. */
export function run(sessionId: string, spec: RunSpec = {}): TranscriptEvent[] {
  const runId = spec.runId ?? `${sessionId}-r1`;
  const start = spec.start ?? 0;
  const end = spec.end ?? start + 1;
  const taint = spec.taint ?? 'clean';
  const events: TranscriptEvent[] = [
    {
      v: 1,
      type: 'run_start',
      at: at(start),
      run_id: runId,
      session_id: sessionId,
      surface: spec.surface ?? 'cli',
      session_kind: spec.kind ?? 'ordinary',
      ...(spec.workspace === null ? {} : { workspace: spec.workspace ?? '/work/project' }),
      ...(spec.goal === undefined ? {} : { goal: spec.goal }),
      ...(spec.tools === undefined ? {} : { tools: [...spec.tools] }),
      ...(spec.resumed === undefined ? {} : { resumed: spec.resumed }),
    },
    {
      v: 1,
      type: 'message',
      at: at(start),
      run_id: runId,
      turn: 0,
      message_id: `${runId}-m0`,
      role: 'owner',
      taint: 'clean',
    },
  ];
  (spec.calls ?? []).forEach((tool, index) => {
    events.push(
      {
        v: 1,
        type: 'tool_call',
        at: at(start),
        run_id: runId,
        turn: index + 1,
        call_id: `${runId}-c${index}`,
        tool,
      },
      {
        v: 1,
        type: 'tool_result',
        at: at(start),
        run_id: runId,
        turn: index + 1,
        call_id: `${runId}-c${index}`,
        status: 'ok',
        taint,
      },
    );
  });
  for (const [name, value] of Object.entries(spec.counters ?? {})) {
    events.push({ v: 1, type: 'counter', at: at(end), run_id: runId, name, value });
  }
  events.push(...(spec.extra ?? []));
  if (spec.stop !== null) {
    events.push({
      v: 1,
      type: 'run_end',
      at: at(end),
      run_id: runId,
      stop_cause: spec.stop ?? 'completed',
    });
  }
  return events;
}

/** A session in the memory store: its listing taken from the first run, and its transcript. */
export function session(
  sessionId: string,
  runs: readonly RunSpec[] = [{}],
  listing: { startedAt?: string; kind?: SessionKind | null; surface?: string | null } = {},
): MemorySession {
  const first = runs[0] ?? {};
  const kind = listing.kind === undefined ? (first.kind ?? 'ordinary') : listing.kind;
  const surface = listing.surface === undefined ? (first.surface ?? 'cli') : listing.surface;
  return {
    listing: {
      sessionId,
      startedAt: listing.startedAt ?? at(first.start ?? 0),
      ...(kind === null ? {} : { kind }),
      ...(surface === null ? {} : { surface }),
    },
    transcript: runs.flatMap((spec, index) =>
      run(sessionId, { runId: `${sessionId}-r${index + 1}`, ...spec }),
    ),
  };
}

/** A staged draft. */
export function staged(
  draftId: string,
  sessionId: string,
  options: { at?: number; tool?: string; taint?: Taint; text?: string; goal?: GoalRef } = {},
): DraftStaged {
  return {
    v: 1,
    type: 'staged',
    at: at(options.at ?? 1),
    draft_id: draftId,
    session_id: sessionId,
    tool: options.tool ?? 'mail_send',
    taint: options.taint ?? 'clean',
    ...(options.text === undefined ? {} : { text: options.text }),
    ...(options.goal === undefined ? {} : { goal: options.goal }),
  };
}

/** What became of a draft, stamped with who did it. */
export function outcome(
  draftId: string,
  verdict: DraftOutcome['outcome'],
  options: { at?: number; sender?: Actor; reason?: string } = {},
): DraftOutcome {
  return {
    v: 2,
    type: 'outcome',
    at: at(options.at ?? 2),
    draft_id: draftId,
    outcome: verdict,
    sender: options.sender ?? 'owner',
    ...(options.reason === undefined ? {} : { reason: options.reason }),
  };
}

/** A question a session parked. */
export function parked(
  questionId: string,
  sessionId: string,
  options: { at?: number; purpose?: 'goal' | 'ordinary'; goal?: GoalRef } = {},
): QuestionRecord {
  return {
    v: 1,
    type: 'parked',
    at: at(options.at ?? 1),
    question_id: questionId,
    session_id: sessionId,
    purpose: options.purpose ?? 'ordinary',
    ...(options.goal === undefined ? {} : { goal: options.goal }),
  };
}

/** A parked question answered or abandoned. */
export function questionEnd(
  questionId: string,
  type: 'answered' | 'abandoned',
  hours = 2,
): QuestionRecord {
  return { v: 1, type, at: at(hours), question_id: questionId };
}

/** A task closure or reopen. */
export function closure(
  closureId: string,
  taskId: string,
  to: ClosureRecord['to'],
  sessionIds: readonly string[],
  options: {
    at?: number;
    from?: ClosureRecord['from'];
    who?: ClosureRecord['who'];
    reopens?: string;
  } = {},
): ClosureRecord {
  return {
    v: 2,
    closure_id: closureId,
    at: at(options.at ?? 3),
    task_id: taskId,
    from: options.from ?? 'next',
    to,
    surface: 'cli',
    session_ids: [...sessionIds],
    who: options.who ?? 'owner',
    person_present: true,
    ...(options.reopens === undefined ? {} : { reopens: options.reopens }),
  };
}

/** A workflow lifecycle event. */
export function workflow(
  workflowId: string,
  event:
    | { type: 'started'; sessionId: string; taskId?: string }
    | { type: 'verified'; sessionId: string; passed: boolean; check?: 'artifact' | 'delivery' }
    | { type: 'closed' | 'cancelled' | 'reopened' },
  hours = 2,
): WorkflowRecord {
  const base = { v: 1 as const, at: at(hours), workflow_id: workflowId };
  switch (event.type) {
    case 'started':
      return {
        ...base,
        type: 'started',
        session_id: event.sessionId,
        ...(event.taskId === undefined ? {} : { task_id: event.taskId }),
      };
    case 'verified':
      return {
        ...base,
        type: 'verified',
        session_id: event.sessionId,
        passed: event.passed,
        check: event.check ?? 'artifact',
      };
    default:
      return { ...base, type: event.type };
  }
}

/** A text appraisal of a session. */
export function textAppraisal(
  appraisalId: string,
  sessionId: string,
  options: {
    at?: number;
    expected?: ExpectedAct;
    taint?: Taint;
    kept?: number;
    dropped?: Record<string, number>;
    goalUnresolved?: boolean;
  } = {},
): TextAppraisalRecord {
  return {
    v: 1,
    appraisal_id: appraisalId,
    session_id: sessionId,
    at: at(options.at ?? 5),
    taint: options.taint ?? 'clean',
    ...(options.expected === undefined ? {} : { expected_act: options.expected }),
    interpretation: 'The run did what it was for.',
    claims_kept: options.kept ?? 1,
    claims_dropped: options.dropped ?? {},
    goal_unresolved: options.goalUnresolved ?? false,
  };
}

/** A board task. */
export function task(
  taskId: string,
  options: { status?: BoardTask['status']; projectId?: string; due?: string; title?: string } = {},
): BoardTask {
  return {
    v: 1,
    kind: 'task',
    id: taskId,
    title: options.title ?? `Task ${taskId}`,
    status: options.status ?? 'next',
    ...(options.projectId === undefined ? {} : { project_id: options.projectId }),
    ...(options.due === undefined ? {} : { due: options.due }),
  };
}

/** A comparison record. */
export function comparison(
  comparisonId: string,
  options: {
    at?: number;
    model?: string;
    verdict?: ComparisonRecord['verdict'];
    moment?: string;
    decidedBy?: 'validator' | 'judge';
    sessionId?: string;
  } = {},
): ComparisonRecord {
  return {
    v: 1,
    comparison_id: comparisonId,
    at: at(options.at ?? 1),
    session_id: options.sessionId ?? 's-1',
    moment: options.moment ?? 'steer',
    verdict: options.verdict ?? 'separated',
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.decidedBy === undefined ? {} : { decided_by: options.decidedBy }),
  };
}
