import type { Label } from '../schemas/goal-error.js';
import { formatValence, type ValenceSums } from './format-valence.js';

/**
 * What every surface shows for one reading: the TUI badge, the web chip and Slack's context line
 * all render this one value, so they can never disagree about a run.
 */
export interface AppraisalChip {
  /** The label word, or `undefined` when the label says no word (neutral). */
  readonly word: string | undefined;
  /** The valence as `formatValence` writes it: `+1.0 −0.5`, trailing `…` when partial. */
  readonly valence: string;
  /** The word (when there is one) and the valence: `distress −0.5`, `+1.0`. */
  readonly text: string;
  readonly positive: number;
  readonly negative: number;
  readonly partial: boolean;
  /**
   * `negative` when anything negative was signed (the badge's amber, the web logo's outline),
   * `positive` when only positives were (the badge's grey).
   */
  readonly tone: 'negative' | 'positive';
}

/**
 * The chip for a reading, or `undefined` for a silent run (nothing signed either way, partial or
 * not): a surface shows nothing at all then, so absence stays a plain absence.
 */
export function appraisalChip(reading: {
  readonly valence: ValenceSums;
  readonly label?: Label | undefined;
}): AppraisalChip | undefined {
  const valence = formatValence(reading.valence);
  if (valence === '') return undefined;
  const word =
    reading.label === undefined || reading.label === 'neutral' ? undefined : reading.label;
  return {
    word,
    valence,
    text: word === undefined ? valence : `${word} ${valence}`,
    positive: reading.valence.positive,
    negative: reading.valence.negative,
    partial: reading.valence.partial === true,
    tone: reading.valence.negative > 0 ? 'negative' : 'positive',
  };
}
