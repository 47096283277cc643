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

/**
 * Sums the positive and the negative errors separately — `negative` is a magnitude, never
 * below zero — so a run that went both well and badly shows both sides.
 */
export function valence(
  errors: readonly GoalError[],
  options: { readonly partial?: boolean } = {},
): Valence {
  let positiveUnits = 0;
  let negativeUnits = 0;
  let positiveRest: number[] | undefined;
  let negativeRest: number[] | undefined;
  for (const error of errors) {
    const sign = error.sign;
    if (sign === 0) continue;
    const magnitude = Math.abs(sign);
    const units = magnitude * scale;
    if (Number.isInteger(units)) {
      if (sign > 0) positiveUnits += units;
      else negativeUnits += units;
    } else if (sign > 0) {
      positiveRest ??= [];
      positiveRest.push(magnitude);
    } else {
      negativeRest ??= [];
      negativeRest.push(magnitude);
    }
  }
  return {
    positive: total(positiveUnits, positiveRest),
    negative: total(negativeUnits, negativeRest),
    partial: options.partial ?? false,
  };
}
