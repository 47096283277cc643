/** Positive and negative magnitudes of a reading, summed separately and never netted. */
export interface ValenceSums {
  readonly positive: number;
  readonly negative: number;
  /** Evidence was missing (a source not read whole, or a compacted run): the number is partial. */
  readonly partial?: boolean;
}

const minus = '\u2212';
const ellipsis = '\u2026';

/**
 * Renders valence the way every surface shows it: `+1.0 −0.5`, each side only when it holds
 * something, a trailing `…` when the reading is partial, and the empty string for a silent run
 * (nothing signed either way), partial or not.
 */
export function formatValence(valence: ValenceSums): string {
  const sides: string[] = [];
  if (valence.positive > 0) sides.push(`+${valence.positive.toFixed(1)}`);
  if (valence.negative > 0) sides.push(`${minus}${valence.negative.toFixed(1)}`);
  const text = sides.join(' ');
  return valence.partial === true && text !== '' ? `${text}${ellipsis}` : text;
}
