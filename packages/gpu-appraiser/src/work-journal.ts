import type { AppraiserCore } from './appraiser-core.js';
import type { QueueRow, SourceRow } from './appraiser-types.js';
import type { InterpretationCheck } from './parse-interpretation.js';
import { addQueueVersion } from './queue.js';

// The journal's side of the work: each queue object's work is bracketed by journal records
// (begin, the two responses, end), every one on disk before the work goes on.

/** Ends a queue object's work without a result: a new queue version, then the journal's end. */
export function finish(
  core: AppraiserCore,
  queueId: number,
  outcome: 'refused' | 'interrupted',
  reason: string,
): void {
  core.db.transaction(() => addQueueVersion(core, queueId, outcome, reason)).immediate();
  core.journal.append({ kind: 'end', queue: queueId, outcome, reason });
}

/** What the second answer is checked against: the source, the quotes and the task cue. */
export function interpretationCheck(
  source: SourceRow,
  queue: QueueRow,
  quotes: readonly string[],
  targets: number,
): InterpretationCheck {
  return {
    source: source.text,
    quotes,
    correctionTargets: targets,
    ...(source.task_id === null ? {} : { taskId: source.task_id }),
    ...(queue.task_descriptor === null ? {} : { taskDescriptor: queue.task_descriptor }),
  };
}
