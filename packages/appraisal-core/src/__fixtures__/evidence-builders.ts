import type { SessionEvidence } from '../ports/session-evidence.js';
import type { ClosureRecord } from '../schemas/closures.js';
import type { Agency, GoalError, GoalRef } from '../schemas/goal-error.js';
import type { OwnerOutcomeRecord, ReflectionRecord } from '../schemas/learning.js';
import type { DraftOutcome, DraftStaged, OutboxRecord } from '../schemas/outbox.js';
import type { Actor } from '../schemas/primitives.js';
import type { QuestionRecord } from '../schemas/questions.js';
import type { RequestRecord } from '../schemas/requests.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { StopCause, TranscriptEvent } from '../schemas/transcript.js';
import type { WorkflowRecord } from '../schemas/workflows.js';

/** The session every builder writes for unless told otherwise. */
export const session = 's-1';

const epoch = Date.parse('2026-09-25T09:00:00Z');

/** A timestamp `hours` after 2026-09-25 09:00 UTC. */
export function hour(hours: number): string {
  return new Date(epoch + hours * 3_600_000).toISOString();
}

type Source<T> = readonly T[] | SourceRead<T>;

function sourceOf<T>(source: Source<T> | undefined): SourceRead<T> {
  if (source === undefined) return { state: 'read', records: [] };
  if ('state' in source) return source;
  return { state: 'read', records: source };
}

/** The stores of one session, each given as plain records (read whole) or a read state. */
export interface EvidenceParts {
  readonly sessionId?: string;
  readonly transcript?: Source<TranscriptEvent>;
  readonly outbox?: Source<OutboxRecord>;
  readonly questions?: Source<QuestionRecord>;
  readonly requests?: Source<RequestRecord>;
  readonly closures?: Source<ClosureRecord>;
  readonly workflows?: Source<WorkflowRecord>;
  readonly reflections?: Source<ReflectionRecord>;
  readonly ownerOutcomes?: Source<OwnerOutcomeRecord>;
}

/** One session's evidence; a store left out is read whole and empty. */
export function evidence(parts: EvidenceParts = {}): SessionEvidence {
  return {
    sessionId: parts.sessionId ?? session,
    transcript: sourceOf(parts.transcript),
    outbox: sourceOf(parts.outbox),
    questions: sourceOf(parts.questions),
    requests: sourceOf(parts.requests),
    closures: sourceOf(parts.closures),
    workflows: sourceOf(parts.workflows),
    reflections: sourceOf(parts.reflections),
    ownerOutcomes: sourceOf(parts.ownerOutcomes),
  };
}

/** A source that could not be read. */
export function unreadable<T>(reason = 'EACCES'): SourceRead<T> {
  return { state: 'unreadable', reason };
}

/** A source read with one line skipped. */
export function partial<T>(records: readonly T[]): SourceRead<T> {
  return { state: 'partial', records, skipped: [{ file: 'x.jsonl', line: 3, reason: 'torn' }] };
}

// ---- transcript ------------------------------------------------------------------------

/** A run beginning, optionally naming a goal. */
export function start(
  runId: string,
  at = 0,
  options: { goal?: GoalRef; resumed?: boolean; sessionId?: string } = {},
): TranscriptEvent {
  return {
    v: 1,
    type: 'run_start',
    at: hour(at),
    run_id: runId,
    session_id: options.sessionId ?? session,
    surface: 'tui',
    session_kind: 'ordinary',
    ...(options.goal === undefined ? {} : { goal: options.goal }),
    ...(options.resumed === undefined ? {} : { resumed: options.resumed }),
  };
}

/** A run ending with a stop cause. */
export function end(runId: string, stopCause: StopCause, at = 1): TranscriptEvent {
  return { v: 1, type: 'run_end', at: hour(at), run_id: runId, stop_cause: stopCause };
}

/** A person stepping in at a turn. */
export function intervention(
  runId: string,
  kind: 'steer' | 'deny' | 'stop',
  turn: number,
  at = 0.5,
): TranscriptEvent {
  return { v: 1, type: 'intervention', at: hour(at), run_id: runId, turn, kind };
}

/** A counter on the run's record. */
export function counter(runId: string, name: string, value = 1, at = 0.9): TranscriptEvent {
  return { v: 1, type: 'counter', at: hour(at), run_id: runId, name, value };
}

/** A declared step check and whether it passed. */
export function stepCheck(
  runId: string,
  stepId: string,
  turn: number,
  passed: boolean,
  at = 0.5,
): TranscriptEvent {
  return { v: 1, type: 'step_check', at: hour(at), run_id: runId, turn, step_id: stepId, passed };
}

/** The message list rewritten in place. */
export function compaction(runId: string, turn = 10, at = 0.6): TranscriptEvent {
  return { v: 1, type: 'compaction', at: hour(at), run_id: runId, turn };
}

/** A message, which signs nothing by itself. */
export function message(runId: string, turn: number, at = 0.2): TranscriptEvent {
  return {
    v: 1,
    type: 'message',
    at: hour(at),
    run_id: runId,
    turn,
    message_id: `m-${turn}`,
    role: 'owner',
    taint: 'clean',
  };
}

/** A verdict of the retired counts-only appraiser, as an old transcript holds it. */
export function appraiserVerdict(
  runId: string,
  sign: number,
  agency: Agency,
  at = 0.95,
): TranscriptEvent {
  return {
    v: 1,
    type: 'appraiser_verdict',
    at: hour(at),
    run_id: runId,
    error: {
      channel: 'appraisal',
      sign,
      agency,
      visible: false,
      controllable: 'unfilled',
      cite: { kind: 'appraiser' },
    },
  };
}

// ---- outbox, questions, requests -------------------------------------------------------

/** A draft the session staged. */
export function staged(
  draftId: string,
  options: { goal?: GoalRef; sessionId?: string; at?: number } = {},
): DraftStaged {
  return {
    v: 1,
    type: 'staged',
    at: hour(options.at ?? 0.3),
    draft_id: draftId,
    session_id: options.sessionId ?? session,
    tool: 'mail_send',
    taint: 'clean',
    ...(options.goal === undefined ? {} : { goal: options.goal }),
  };
}

/** What became of a draft, and who acted. */
export function outcome(
  draftId: string,
  result: DraftOutcome['outcome'],
  sender: Actor = 'owner',
  at = 5,
): DraftOutcome {
  return { v: 2, type: 'outcome', at: hour(at), draft_id: draftId, outcome: result, sender };
}

/** A question the session parked. */
export function parked(questionId: string, at = 0.4, goal?: GoalRef): QuestionRecord {
  return {
    v: 1,
    type: 'parked',
    at: hour(at),
    question_id: questionId,
    session_id: session,
    purpose: 'ordinary',
    ...(goal === undefined ? {} : { goal }),
  };
}

/** An answer or an abandonment of a question. */
export function settled(
  questionId: string,
  type: 'answered' | 'abandoned',
  at = 2,
): QuestionRecord {
  return { v: 1, type, at: hour(at), question_id: questionId };
}

/** One step of a front-door request's lifecycle. */
export function request(
  requestId: string,
  type: RequestRecord['type'],
  at: number,
  options: { sessionId?: string; draftId?: string } = {},
): RequestRecord {
  const base = { v: 1 as const, at: hour(at), request_id: requestId };
  switch (type) {
    case 'triaged':
      return { ...base, type, session_id: options.sessionId ?? session };
    case 'draft_linked':
      return { ...base, type, draft_id: options.draftId ?? 'd-linked' };
    default:
      return { ...base, type };
  }
}

// ---- closures, workflows, learning -----------------------------------------------------

/** A closure or reopen of a board task. */
export function closure(
  closureId: string,
  from: ClosureRecord['from'],
  to: ClosureRecord['to'],
  options: {
    at?: number;
    sessions?: readonly string[];
    who?: ClosureRecord['who'];
    reopens?: string;
    task?: string;
  } = {},
): ClosureRecord {
  return {
    v: 2,
    closure_id: closureId,
    at: hour(options.at ?? 10),
    task_id: options.task ?? 'task-1',
    from,
    to,
    surface: 'cli',
    session_ids: [...(options.sessions ?? [session])],
    who: options.who ?? 'owner',
    person_present: true,
    ...(options.reopens === undefined ? {} : { reopens: options.reopens }),
  };
}

/** One step of a workflow's lifecycle. */
export function workflow(
  workflowId: string,
  type: WorkflowRecord['type'],
  at: number,
  options: {
    sessionId?: string;
    task?: string;
    check?: 'artifact' | 'delivery';
    passed?: boolean;
  } = {},
): WorkflowRecord {
  const base = { v: 1 as const, at: hour(at), workflow_id: workflowId };
  switch (type) {
    case 'started':
      return {
        ...base,
        type,
        session_id: options.sessionId ?? session,
        ...(options.task === undefined ? {} : { task_id: options.task }),
      };
    case 'verified':
      return {
        ...base,
        type,
        check: options.check ?? 'artifact',
        passed: options.passed ?? false,
        session_id: options.sessionId ?? session,
      };
    default:
      return { ...base, type };
  }
}

/** A reflection mined from the session. */
export function reflection(
  reflectionId: string,
  options: { clean?: boolean; turn?: number; sessionId?: string } = {},
): ReflectionRecord {
  return {
    v: 1,
    reflection_id: reflectionId,
    session_id: options.sessionId ?? session,
    at: hour(20),
    clean: options.clean ?? true,
    ...(options.turn === undefined ? {} : { correction_turn: options.turn }),
  };
}

/** An owner outcome linked to a delivered draft. */
export function ownerOutcome(
  outcomeId: string,
  draftId: string,
  kind: OwnerOutcomeRecord['kind'],
  options: { commitment?: string; sessionId?: string; at?: number } = {},
): OwnerOutcomeRecord {
  return {
    v: 1,
    outcome_id: outcomeId,
    at: hour(options.at ?? 30),
    draft_id: draftId,
    session_id: options.sessionId ?? session,
    kind,
    ...(options.commitment === undefined ? {} : { commitment_id: options.commitment }),
  };
}

// ---- goal errors -----------------------------------------------------------------------

/** A signed error with sensible defaults: a self-caused −1.0 steer at turn 1. */
export function goalError(overrides: Partial<GoalError> = {}): GoalError {
  return {
    channel: 'intervention',
    sign: -1,
    agency: 'self',
    visible: false,
    controllable: 'unfilled',
    cite: { kind: 'turn', turn: 1 },
    ...overrides,
  };
}
