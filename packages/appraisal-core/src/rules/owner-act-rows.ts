import type { ClosureRecord } from '../schemas/closures.js';
import type { DraftOutcome } from '../schemas/outbox.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { isClosing } from './owner-acts.js';
import type { SignedRowId } from './signed-entry.js';

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
