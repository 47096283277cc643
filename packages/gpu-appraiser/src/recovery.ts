import { lockHolder } from '@mecha/local-model';
import type { AppraiserCore } from './appraiser-core.js';
import { correctionCandidates, publish } from './assessments.js';
import type { JournalRecord } from './journal.js';
import { parseInterpretation } from './parse-interpretation.js';
import { currentProcessor, isKnownProcessor } from './processor.js';
import { queueRow, queueState, sourceRow } from './queue.js';
import { finish, interpretationCheck } from './work-journal.js';

// Recovery, before anything else can publish. The journal belongs to whichever process works on
// this memory; while another live one does, its open work is not ours to end, and recovery waits
// for the next run here.

type Begin = Extract<JournalRecord, { kind: 'begin' }>;
type Response = Extract<JournalRecord, { kind: 'response' }>;

/** Recovers at open, or defers recovery while another process holds the work lock. */
export function recoverAtOpen(core: AppraiserCore): void {
  core.recovery.deferred = lockHolder(core.workLock) !== undefined;
  if (!core.recovery.deferred) recover(core);
}

/** The journal's open work: queue objects with a begin and no end, with their records. */
function openWork(records: readonly JournalRecord[]): Map<number, JournalRecord[]> {
  const open = new Map<number, JournalRecord[]>();
  for (const record of records) {
    if (record.kind === 'begin') open.set(record.queue, [record]);
    else if (record.kind === 'response') open.get(record.queue)?.push(record);
    else open.delete(record.queue);
  }
  return open;
}

/**
 * Ends every open piece of work: work that ended inside a call is recorded interrupted, a
 * recorded complete answer is re-checked and applied without a new model call, and a result of
 * an unknown processor is refused.
 */
export function recover(core: AppraiserCore): void {
  const { journal, recovery } = core;
  const { recovered } = recovery;
  recovery.deferred = false;
  recovery.read = journal.open();
  for (const [queueId, records] of openWork(recovery.read.records)) {
    const queue = queueRow(core, queueId);
    const source = queue ? sourceRow(core, queue.source_id) : undefined;
    if (!queue || !source) {
      journal.append({
        kind: 'end',
        queue: queueId,
        outcome: 'refused',
        reason: 'the journal names a queue object this memory does not hold',
      });
      recovered.refused += 1;
      continue;
    }
    if (queueState(core, queueId) === 'complete') {
      journal.append({ kind: 'end', queue: queueId, outcome: 'complete' });
      continue;
    }
    const processors = records.map((record) => ('processor' in record ? record.processor : ''));
    if (processors.some((processor) => !isKnownProcessor(processor))) {
      finish(core, queueId, 'refused', 'the recorded result names an unknown processor contract');
      recovered.refused += 1;
      continue;
    }
    const second = records.find(
      (record): record is Response => record.kind === 'response' && record.phase === 2,
    );
    if (
      second &&
      second.stopReason === 'grammar' &&
      second.processor === currentProcessor &&
      second.quotes
    ) {
      // The complete answer was recorded: re-check its bytes and apply them, no new call.
      const candidates = correctionCandidates(core, source);
      const parsed = parseInterpretation(
        second.text,
        interpretationCheck(source, queue, second.quotes, candidates.length),
      );
      if (parsed.state === 'read') {
        const begin = records[0] as Begin;
        publish(core, queue, source, second.quotes, parsed.value, begin.model, candidates);
        journal.append({ kind: 'end', queue: queueId, outcome: 'complete' });
        recovered.applied += 1;
      } else {
        finish(core, queueId, 'refused', parsed.reason);
        recovered.refused += 1;
      }
      continue;
    }
    finish(core, queueId, 'interrupted', 'the journal ends inside this work (recorded at startup)');
    recovered.interrupted += 1;
  }
}
