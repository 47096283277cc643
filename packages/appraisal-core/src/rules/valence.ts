import type { ValenceSums } from '../readouts/format-valence.js';
import type { GoalError } from '../schemas/goal-error.js';

/**
 * A reading's valence: positive and negative magnitudes summed apart and never netted, and
 * whether the evidence behind them was partial (a source not read whole, or a compacted run).
 */
export interface Valence extends ValenceSums {
  readonly partial: boolean;
}

// Magnitudes that are whole multiples of 2^-20 (every constant in the contribution table) are
// summed as integers, exactly; any other is summed in ascending order. Either way the sum
// does not depend on the order of the errors.
const scale = 2 ** 20;

function total(units: number, rest: number[] | undefined): number {
  if (rest === undefined) return units / scale;
  rest.sort((a, b) => a - b);
  let sum = 0;
  for (const magnitude of rest) sum += magnitude;
  return units / scale + sum;
}

// Positive and negative magnitudes summed apart, exactly where the magnitudes allow.
class Sums {
  private positiveUnits = 0;
  private negativeUnits = 0;
  private positiveRest: number[] | undefined;
  private negativeRest: number[] | undefined;

  add(magnitude: number, positive: boolean): void {
    if (magnitude === 0) return;
    const units = magnitude * scale;
    if (Number.isInteger(units)) {
      if (positive) this.positiveUnits += units;
      else this.negativeUnits += units;
    } else if (positive) {
      this.positiveRest ??= [];
      this.positiveRest.push(magnitude);
    } else {
      this.negativeRest ??= [];
      this.negativeRest.push(magnitude);
    }
  }

  valence(partial: boolean): Valence {
    return {
      positive: total(this.positiveUnits, this.positiveRest),
      negative: total(this.negativeUnits, this.negativeRest),
      partial,
    };
  }
}

/**
 * Sums the positive and the negative errors separately — `negative` is a magnitude, never
 * below zero — so a run that went both well and badly shows both sides.
 */
export function valence(
  errors: readonly GoalError[],
  options: { readonly partial?: boolean } = {},
): Valence {
  const sums = new Sums();
  for (const error of errors) sums.add(Math.abs(error.sign), error.sign > 0);
  return sums.valence(options.partial ?? false);
}

/**
 * Sums readings' valence across sessions: positive with positive and negative with negative,
 * never netted, exactly as {@link valence} sums one session (so the total does not depend on
 * the order of the readings), and partial when any reading was. The one place valence is
 * summed across sessions: the corpus readout, a project's reading and the web board's days.
 */
export function sumValence(readings: Iterable<ValenceSums>): Valence {
  const sums = new Sums();
  let partial = false;
  for (const reading of readings) {
    sums.add(reading.positive, true);
    sums.add(reading.negative, false);
    if (reading.partial === true) partial = true;
  }
  return sums.valence(partial);
}
