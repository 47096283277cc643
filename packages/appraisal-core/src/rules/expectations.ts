import { type CharterLine, patienceOf } from '@mecha/charter';
import type { SessionEvidence } from '../ports/session-evidence.js';
import { recordsOrNone } from '../ports/store-index.js';
import type { BoardRecord } from '../schemas/board.js';
import type { ExpectedAct, TextAppraisalRecord } from '../schemas/learning.js';
import type { SourceRead } from '../schemas/source-read.js';
import { endOfLocalDay } from '../support/local-day.js';
import { type RecordedActKind, recordedActs } from './owner-acts.js';

/** The wait when nothing more specific applies, and the outbox's when no charter line sets it. */
export const defaultWaitMs = 48 * 3_600_000;

/** Why an expectation could not be scored; an unreadable source is never read as "no act". */
export type ExpectationUnknownReason =
  | 'transcript_unreadable'
  | 'outbox_unreadable'
  | 'closures_unreadable'
  | 'workflows_unreadable'
  | 'charter_unreadable'
  | 'board_unreadable'
  | 'timezone_unknown'
  | 'actor_unrecorded';

/** One owner act on a session's output, in the vocabulary of an expected act. */
export interface OwnerAct {
  readonly act: Exclude<ExpectedAct, 'no_act'>;
  readonly at: string;
  /** The record that holds it: a draft, a closure or a workflow id. */
  readonly cite: string;
}

/**
 * An appraisal's expected act checked against the owner's first act within the wait.
 * `scored` carries the actual act (`no_act` once the wait ran out with nothing done).
 */
export type ExpectationScore =
  | {
      readonly status: 'scored';
      readonly expected: ExpectedAct;
      readonly actual: ExpectedAct;
      readonly hit: boolean;
      readonly deadline: string;
      readonly act?: OwnerAct;
    }
  | { readonly status: 'pending'; readonly expected: ExpectedAct; readonly deadline: string }
  | {
      readonly status: 'unknown';
      readonly expected: ExpectedAct;
      readonly reason: ExpectationUnknownReason;
    }
  | { readonly status: 'board_not_read'; readonly expected: ExpectedAct };

/** What scoring needs beyond the session's evidence: the time, the owner's zone and charter. */
export interface ExpectationContext {
  readonly now: Date;
  /** The owner's IANA time zone; a due date with no time runs to the end of that day there. */
  readonly timeZone: string;
  readonly charter: SourceRead<CharterLine>;
}

type Wait =
  | { readonly kind: 'until'; readonly deadline: number }
  | { readonly kind: 'unknown'; readonly reason: ExpectationUnknownReason }
  | { readonly kind: 'board_not_read' };

// The outbox's patience as `@mecha/charter` reads it: the setpoint of the line watching
// `outbox_age`, else its default (48 hours). Undefined when the charter was not read whole.
function outboxPatience(charter: SourceRead<CharterLine>): number | undefined {
  if (charter.state !== 'read') return undefined;
  return patienceOf(charter.records, 'outbox').patience;
}

// The task a session's output is: the task its runs named as their goal, else the task a
// closure naming the session moved. Only called once the transcript and closures were read.
function outputTask(evidence: SessionEvidence): string | undefined {
  let named: string | undefined;
  for (const event of recordsOrNone(evidence.transcript)) {
    if (event.type === 'run_start' && event.goal?.kind === 'task' && event.goal.id) {
      named = event.goal.id;
    }
  }
  return named ?? recordsOrNone(evidence.closures)[0]?.task_id;
}

function taskDeadline(
  board: SourceRead<BoardRecord>,
  taskId: string,
  end: number,
  timeZone: string,
): Wait {
  if (board.state !== 'read') return { kind: 'unknown', reason: 'board_unreadable' };
  const row = board.records.find((record) => record.kind === 'task' && record.id === taskId);
  const due = row?.kind === 'task' ? row.due : undefined;
  if (due === undefined) return { kind: 'until', deadline: end + defaultWaitMs };
  const deadline = due.length === 10 ? endOfLocalDay(due, timeZone) : Date.parse(due);
  if (deadline === undefined) return { kind: 'unknown', reason: 'timezone_unknown' };
  // A due date already behind the session when it ended gives the ordinary wait.
  return { kind: 'until', deadline: deadline > end ? deadline : end + defaultWaitMs };
}

function waitFor(evidence: SessionEvidence, end: number, context: ExpectationContext): Wait {
  if (recordsOrNone(evidence.outbox).some((record) => record.type === 'staged')) {
    const patience = outboxPatience(context.charter);
    if (patience === undefined) return { kind: 'unknown', reason: 'charter_unreadable' };
    return { kind: 'until', deadline: end + patience };
  }
  const taskId = outputTask(evidence);
  if (taskId !== undefined) {
    if (evidence.board === undefined) return { kind: 'board_not_read' };
    return taskDeadline(evidence.board, taskId, end, context.timeZone);
  }
  return { kind: 'until', deadline: end + defaultWaitMs };
}

type ActsRead =
  | { readonly kind: 'acts'; readonly acts: readonly (OwnerAct & { readonly sure: boolean })[] }
  | { readonly kind: 'unknown'; readonly reason: ExpectationUnknownReason };

const expectedActs: Partial<Record<RecordedActKind, Exclude<ExpectedAct, 'no_act'>>> = {
  draft_sent_unchanged: 'released_unchanged',
  draft_sent_edited: 'edited',
  draft_rejected: 'rejected',
  draft_cancelled: 'rejected',
  task_closed: 'closed',
  task_dropped: 'rejected',
  task_reopened: 'reopened',
  workflow_closed: 'closed',
  workflow_cancelled: 'rejected',
  workflow_reopened: 'reopened',
};

/**
 * The owner's acts on a session's output, as {@link recordedActs} derives and orders them, in the
 * vocabulary of an expected act: a draft's verdict (a cancel reads as rejected), a task
 * closure (done is closed, dropped reads as rejected, a reopen is reopened) and a workflow
 * move. A draft a run's shell decided is no owner act; an unrecorded actor is unsure.
 */
export function ownerActs(evidence: SessionEvidence): ActsRead {
  const { outbox, closures, workflows } = evidence;
  if (outbox.state !== 'read') return { kind: 'unknown', reason: 'outbox_unreadable' };
  if (closures.state !== 'read') return { kind: 'unknown', reason: 'closures_unreadable' };
  if (workflows.state !== 'read') return { kind: 'unknown', reason: 'workflows_unreadable' };
  const acts: (OwnerAct & { sure: boolean })[] = [];
  for (const recorded of recordedActs({
    outbox: outbox.records,
    closures: closures.records,
    workflows: workflows.records,
  })) {
    const act = expectedActs[recorded.act];
    if (act !== undefined)
      acts.push({ act, at: recorded.at, cite: recorded.id, sure: recorded.sure });
  }
  // Already in recordedActs' order (time, then store, then store order): no second sort.
  return { kind: 'acts', acts };
}

/**
 * When the session ended: the later of its last recorded line and its last run end (a log is
 * appended in time order, so no other line can be later); undefined if not read whole.
 */
export function sessionEnd(evidence: SessionEvidence): number | undefined {
  const transcript = evidence.transcript;
  const last = transcript.state === 'read' ? transcript.records.at(-1) : undefined;
  if (last === undefined) return undefined;
  let end = Date.parse(last.at);
  for (const event of recordsOrNone(transcript)) {
    if (event.type === 'run_end') end = Math.max(end, Date.parse(event.at));
  }
  return end;
}

/**
 * Scores one text appraisal's expected act against the owner's first act. The clock starts
 * when the session ends; the wait is the outbox's patience when it staged drafts, a task's
 * due date when its output is a task, and otherwise 48 hours. An act after the wait does not
 * count. A needed source that could not be read leaves the answer unknown, never "no act";
 * evidence without a board (`board` absent) leaves a task's answer to a reader that has one.
 */
export function scoreExpectation(
  appraisal: TextAppraisalRecord & { readonly expected_act: ExpectedAct },
  evidence: SessionEvidence,
  context: ExpectationContext,
): ExpectationScore {
  const expected = appraisal.expected_act;
  const end = sessionEnd(evidence);
  if (end === undefined) return { status: 'unknown', expected, reason: 'transcript_unreadable' };
  const read = ownerActs(evidence);
  if (read.kind === 'unknown') return { status: 'unknown', expected, reason: read.reason };
  const wait = waitFor(evidence, end, context);
  if (wait.kind === 'board_not_read') return { status: 'board_not_read', expected };
  if (wait.kind === 'unknown') return { status: 'unknown', expected, reason: wait.reason };
  const deadline = new Date(wait.deadline).toISOString();
  const first = read.acts[0];
  if (first !== undefined && Date.parse(first.at) <= wait.deadline) {
    if (!first.sure) return { status: 'unknown', expected, reason: 'actor_unrecorded' };
    const act: OwnerAct = { act: first.act, at: first.at, cite: first.cite };
    return {
      status: 'scored',
      expected,
      actual: act.act,
      hit: act.act === expected,
      deadline,
      act,
    };
  }
  if (context.now.getTime() < wait.deadline) return { status: 'pending', expected, deadline };
  return { status: 'scored', expected, actual: 'no_act', hit: expected === 'no_act', deadline };
}

/** How the appraisals' expectations fared: coverage counts and a hit rate over scored ones. */
export interface ExpectationCoverage {
  readonly with_expectation: number;
  readonly scored: number;
  readonly hits: number;
  readonly surprises: number;
  /** Surprises in appraisals of sessions that read no third-party content. */
  readonly clean_surprises: number;
  /** The wait is still open. */
  readonly pending: number;
  readonly unknown: number;
  /** Task outputs a reader without the board cannot window. */
  readonly board_not_read: number;
  /** hits / scored; `null` while nothing has been scored, never 0. */
  readonly hit_rate: number | null;
}

/** Folds scores into coverage; `clean` says which scores belong to clean appraisals. */
export function expectationCoverage(
  scores: readonly { readonly score: ExpectationScore; readonly clean: boolean }[],
): ExpectationCoverage {
  let hits = 0;
  let surprises = 0;
  let cleanSurprises = 0;
  let pending = 0;
  let unknown = 0;
  let boardNotRead = 0;
  for (const { score, clean } of scores) {
    if (score.status === 'scored') {
      if (score.hit) hits += 1;
      else {
        surprises += 1;
        if (clean) cleanSurprises += 1;
      }
    } else if (score.status === 'pending') pending += 1;
    else if (score.status === 'unknown') unknown += 1;
    else boardNotRead += 1;
  }
  const scored = hits + surprises;
  return {
    with_expectation: scores.length,
    scored,
    hits,
    surprises,
    clean_surprises: cleanSurprises,
    pending,
    unknown,
    board_not_read: boardNotRead,
    hit_rate: scored === 0 ? null : hits / scored,
  };
}

/** Whether a text appraisal carries an expected act to score. */
export function hasExpectation(
  appraisal: TextAppraisalRecord,
): appraisal is TextAppraisalRecord & { readonly expected_act: ExpectedAct } {
  return appraisal.expected_act !== undefined;
}
