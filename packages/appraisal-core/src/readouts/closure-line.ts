import type { GoalError, Label } from '../schemas/goal-error.js';
import { formatValence } from './format-valence.js';

/** What a closure's one line is made of: the label, the valence and the two tallies. */
export interface ClosureTally {
  readonly label: Label;
  readonly positive: number;
  readonly negative: number;
  /** Errors signed above zero and below zero; a zero-signed entry is neither. */
  readonly positiveSignals: number;
  readonly negativeSignals: number;
  /** The evidence was incomplete (a store unread, a compacted run): the number may be short. */
  readonly partial: boolean;
}

/** Counts the signals of a set of errors: how many signed above zero and how many below. */
export function tallySignals(errors: readonly GoalError[]): {
  positiveSignals: number;
  negativeSignals: number;
} {
  let positiveSignals = 0;
  let negativeSignals = 0;
  for (const error of errors) {
    if (error.sign > 0) positiveSignals += 1;
    else if (error.sign < 0) negativeSignals += 1;
  }
  return { positiveSignals, negativeSignals };
}

function capitalised(label: Label): string {
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/**
 * The one line a closure prints: `mecha's appraisal of task-1a2b3c4d: Distress · −0.5
 * (0 positive, 1 negative signal)`. It counts and never quotes. A neutral label prints no word;
 * a silent reading (nothing signed) says `nothing signed`; partial evidence ends the valence
 * with `…`. The noun agrees with the last tally: `1 negative signal`, `0 negative signals`.
 */
export function closureLine(taskId: string, tally: ClosureTally): string {
  const parts: string[] = [];
  if (tally.label !== 'neutral') parts.push(capitalised(tally.label));
  // formatValence marks a partial reading itself; a silent one still needs the mark here.
  const valence = formatValence(tally);
  if (valence !== '') parts.push(valence);
  let reading = parts.length === 0 ? 'nothing signed' : parts.join(' · ');
  if (tally.partial && valence === '') reading += '…';
  const noun = tally.negativeSignals === 1 ? 'signal' : 'signals';
  return `mecha's appraisal of ${taskId}: ${reading} (${tally.positiveSignals} positive, ${tally.negativeSignals} negative ${noun})`;
}

/** Why a closure has no reading at all: no session worked it, or none could be read. */
export type UnreadableClosureReason = 'no_session' | 'unreadable';

/** The line for a closure with no reading: it says which, and never prints a zero. */
export function unreadableClosureLine(taskId: string, reason: UnreadableClosureReason): string {
  return reason === 'no_session'
    ? `mecha's appraisal of ${taskId}: no session worked this task`
    : `mecha's appraisal of ${taskId}: its session could not be read`;
}
