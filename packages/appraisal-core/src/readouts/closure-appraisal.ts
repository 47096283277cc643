import type { AppraisalPorts } from '../ports/appraisal-ports.js';
import { indexSessionStores, readSessionStores } from '../ports/store-index.js';
import { readTranscripts } from '../ports/transcript-cache.js';
import { deriveLabel, type OwnerOutcomeFact } from '../rules/derive-label.js';
import { type FollowUp, followUpFor, stagesFollowUp } from '../rules/follow-up.js';
import { errorsOf, type SignedEntry } from '../rules/signed-entry.js';
import { type Valence, valence } from '../rules/valence.js';
import type { TaskStatus } from '../schemas/board.js';
import type { Label } from '../schemas/goal-error.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { closureLine, tallySignals, unreadableClosureLine } from './closure-line.js';
import { readSession, type SessionReading } from './read-session.js';

/** The move being appraised: which task, into which status, and the sessions that worked it. */
export interface ClosureMove {
  readonly taskId: string;
  readonly to: TaskStatus;
  readonly sessionIds: readonly string[];
  /** The closure record written for this move; its own entry is not part of the reading. */
  readonly closureId?: string;
  /** The task's project, from its board row, to file a follow-up under. */
  readonly projectId?: string;
}

/** A closure's appraisal: the one line, the reading behind it, and the follow-up, if staged. */
export interface ClosureAppraisal {
  readonly task_id: string;
  readonly line: string;
  /** `null` when no session could be read (or none worked the task). */
  readonly label: Label | null;
  readonly valence: Valence | null;
  readonly positive_signals: number;
  readonly negative_signals: number;
  readonly sessions_appraised: readonly string[];
  readonly sessions_unreadable: readonly string[];
  readonly partial: boolean;
  readonly follow_up: FollowUp | null;
}

/**
 * Folds the readings of a task's sessions into the closure's appraisal. The closure's own
 * entry (the +0.5 of the done being given now, or the dropped zero) is left out: this reads the
 * work, not the verdict just delivered. A follow-up is staged only by `stagesFollowUp`.
 */
export function closureAppraisal(
  move: ClosureMove,
  readings: readonly SessionReading[],
  charterLineIds: ReadonlySet<string>,
): ClosureAppraisal {
  const appraised = readings.filter((reading) => reading.transcriptRead);
  const unreadable = readings.filter((reading) => !reading.transcriptRead).map((r) => r.sessionId);
  const ids = appraised.map((reading) => reading.sessionId);
  if (appraised.length === 0) {
    return {
      task_id: move.taskId,
      line: unreadableClosureLine(move.taskId, readings.length === 0 ? 'no_session' : 'unreadable'),
      label: null,
      valence: null,
      positive_signals: 0,
      negative_signals: 0,
      sessions_appraised: ids,
      sessions_unreadable: unreadable,
      partial: readings.length > 0,
      follow_up: null,
    };
  }
  const own = (entry: SignedEntry) =>
    entry.error.cite.kind === 'closure' && entry.error.cite.closure_id === move.closureId;
  const entries = appraised.flatMap((reading) => reading.entries.filter((entry) => !own(entry)));
  const errors = errorsOf(entries);
  const outcomes = new Map<string, OwnerOutcomeFact>();
  for (const reading of appraised) {
    for (const [id, fact] of reading.labelFacts.ownerOutcomes ?? []) outcomes.set(id, fact);
  }
  const label = deriveLabel(errors, {
    compacted: appraised.some((reading) => reading.compacted),
    charterLineIds,
    ownerOutcomes: outcomes,
  });
  const partial = unreadable.length > 0 || appraised.some((reading) => reading.valence.partial);
  const sums = valence(errors, { partial });
  const tally = tallySignals(errors);
  return {
    task_id: move.taskId,
    line: closureLine(move.taskId, { label, ...sums, ...tally }),
    label,
    valence: sums,
    positive_signals: tally.positiveSignals,
    negative_signals: tally.negativeSignals,
    sessions_appraised: ids,
    sessions_unreadable: unreadable,
    partial,
    follow_up: stagesFollowUp(move.to, label, entries)
      ? followUpFor(
          {
            id: move.taskId,
            ...(move.projectId === undefined ? {} : { project_id: move.projectId }),
          },
          label,
          entries,
        )
      : null,
  };
}

/**
 * Appraises a task closure once, when the owner moves it into done or dropped: reads the
 * sessions that served the task and returns the line to print and the follow-up, if one is
 * staged. Only the owner's verbs call this; nothing here writes a record.
 */
export async function appraiseClosure(
  ports: AppraisalPorts,
  move: ClosureMove,
): Promise<ClosureAppraisal> {
  const sessionIds = [...new Set(move.sessionIds)];
  const [stores, charter, transcripts] = await Promise.all([
    readSessionStores(ports),
    ports.charter.lines(),
    readTranscripts(sessionIds, (sessionId) => ports.sessions.transcript(sessionId)),
  ]);
  const index = indexSessionStores(stores);
  const readings = sessionIds.map((sessionId, position) =>
    readSession(
      index.evidenceFor(sessionId, transcripts[position] as SourceRead<TranscriptEvent>),
      charter,
    ),
  );
  const lines = charter.state === 'unreadable' ? [] : charter.records;
  return closureAppraisal(move, readings, new Set(lines.map((line) => line.id)));
}
