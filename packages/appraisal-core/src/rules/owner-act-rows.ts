import type { ClosureRecord } from '../schemas/closures.js';
import type { DraftOutcome, OutboxRecord } from '../schemas/outbox.js';
import type { QuestionRecord } from '../schemas/questions.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { chronological, firstPerKey } from './record-order.js';
import type { SignedRowId } from './signed-entry.js';

/** Each draft's deciding verdict: its first outcome, same-timestamp ties in store order. */
export function firstVerdicts(outbox: readonly OutboxRecord[]): Map<string, DraftOutcome> {
  return firstPerKey(
    outbox.filter((record): record is DraftOutcome => record.type === 'outcome'),
    (record) => record.draft_id,
  );
}

/** Each question's deciding settlement: its first answer or abandonment, ties in store order. */
export function firstSettlements(
  questions: readonly QuestionRecord[],
): Map<string, QuestionRecord> {
  return firstPerKey(
    questions.filter((record) => record.type !== 'parked'),
    (record) => record.question_id,
  );
}

/**
 * The row a draft's deciding verdict (its first outcome) signs, or `undefined` when it signs
 * nothing: a pending or cancelled draft, a send by a run's shell, or an unchanged send from
 * before the sender was recorded. The one place this rule lives; contributions sign with it
 * and successes count its `draftSentUnchanged`.
 */
export function draftVerdictRow(verdict: DraftOutcome | undefined): SignedRowId | undefined {
  if (verdict === undefined || verdict.sender === 'run_shell') return undefined;
  switch (verdict.outcome) {
    case 'sent_unchanged':
      return verdict.sender === 'owner' ? 'draftSentUnchanged' : undefined;
    case 'sent_edited':
      return 'draftSentEdited';
    case 'rejected':
      return 'draftRejected';
    default:
      return undefined;
  }
}

const closedStatuses: ReadonlySet<string> = new Set(['done', 'dropped']);

/** Whether a closure record reopens a task: it names the closure it undoes, or leaves a closed status. */
export function isReopen(record: ClosureRecord): boolean {
  return (
    record.reopens !== undefined ||
    (closedStatuses.has(record.from) && !closedStatuses.has(record.to))
  );
}

/** Whether a closure record closes a task (done or dropped) rather than reopening it. */
export function isClosing(record: ClosureRecord): boolean {
  return !isReopen(record) && closedStatuses.has(record.to);
}

/**
 * Each closure's withdrawal: the first reopen naming it that comes after it in
 * {@link chronological} order. A reopen recorded before the closure it names (a clock that
 * went back) withdraws nothing; a record repeating an earlier closure id is ignored.
 */
export function closureWithdrawals(records: readonly ClosureRecord[]): Map<string, ClosureRecord> {
  const seen = new Set<string>();
  const found = new Map<string, ClosureRecord>();
  for (const record of chronological(records)) {
    if (seen.has(record.closure_id)) continue;
    seen.add(record.closure_id);
    const named = record.reopens;
    if (named !== undefined && seen.has(named) && !found.has(named)) found.set(named, record);
  }
  return found;
}

/**
 * The row a closing record signs: `taskClosedDropped` for a drop, `taskClosedDone` for a move
 * into done by someone known, and `undefined` for a done by someone this version cannot
 * identify (a version 1 closure), which a success lists as unknown.
 */
export function closureRow(record: ClosureRecord): SignedRowId | undefined {
  if (!isClosing(record)) return undefined;
  if (record.to === 'dropped') return 'taskClosedDropped';
  return record.who === 'unknown' ? undefined : 'taskClosedDone';
}

/**
 * When the work an answer unblocked finished: the earliest `completed` end of a run that began
 * at or after the answer. `undefined` when none did; `unreadable` when the transcript was not
 * read whole and holds none (it cannot say).
 */
export function completedAfter(
  events: readonly TranscriptEvent[],
  answeredAt: number,
  whole: boolean,
): string | undefined | 'unreadable' {
  const startedAfter = new Set<string>();
  let finished: string | undefined;
  for (const event of events) {
    if (event.type === 'run_start' && Date.parse(event.at) >= answeredAt) {
      startedAfter.add(event.run_id);
    } else if (
      event.type === 'run_end' &&
      event.stop_cause === 'completed' &&
      startedAfter.has(event.run_id) &&
      (finished === undefined || Date.parse(event.at) < Date.parse(finished))
    ) {
      finished = event.at;
    }
  }
  if (finished === undefined && !whole) return 'unreadable';
  return finished;
}
