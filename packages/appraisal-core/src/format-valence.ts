/** Positive and negative magnitudes of a reading, summed separately and never netted. */
export interface ValenceSums {
  readonly positive: number;
  readonly negative: number;
}

const minus = '\u2212';

/**
 * Renders valence the way every surface shows it: `+1.0 −0.5`, each side only when it holds
 * something, and the empty string for a silent run (nothing signed either way).
 */
export function formatValence(valence: ValenceSums): string {
  const sides: string[] = [];
  if (valence.positive > 0) sides.push(`+${valence.positive.toFixed(1)}`);
  if (valence.negative > 0) sides.push(`${minus}${valence.negative.toFixed(1)}`);
  return sides.join(' ');
}
