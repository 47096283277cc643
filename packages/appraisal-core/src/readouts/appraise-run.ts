import { deriveLabel, type LabelFacts } from '../rules/derive-label.js';
import { readTranscript } from '../rules/read-transcript.js';
import { errorsOf, type SignedEntry } from '../rules/signed-entry.js';
import { type Valence, valence } from '../rules/valence.js';
import type { GoalError, Label } from '../schemas/goal-error.js';
import type { TranscriptEvent } from '../schemas/transcript.js';

/** The live readout of one finished run: its signed errors, valence and label. */
export interface RunAppraisal {
  readonly errors: readonly GoalError[];
  /** The same errors, each with the id of the contribution-table row that signed it. */
  readonly entries: readonly SignedEntry[];
  readonly valence: Valence;
  readonly label: Label;
  /** The facts the label was derived with (for {@link explainLabel}). */
  readonly labelFacts: LabelFacts;
}

const noCharterLines: ReadonlySet<string> = new Set();

/**
 * The free per-run readout a harness calls when a run finishes: a pure function of the run's
 * own transcript events, reading no drafts or commitment stores — so it has no positive
 * channel and never reads pride. A compacted run reads neutral with a partial valence.
 */
export function appraiseRun(run: readonly TranscriptEvent[]): RunAppraisal {
  const reading = readTranscript(run);
  const errors = errorsOf(reading.entries);
  const labelFacts: LabelFacts = { compacted: reading.compacted, charterLineIds: noCharterLines };
  return {
    errors,
    entries: reading.entries,
    valence: valence(errors, { partial: reading.compacted }),
    label: deriveLabel(errors, labelFacts),
    labelFacts,
  };
}
