import { formatValence, type ValenceSums } from '@mecha/appraisal-core';

/**
 * The one context line posted in a Slack thread after a run: `appraisal · −0.5`, or
 * `appraisal · anger −0.5` when the label names a word. Nothing for a silent run.
 */
export function runEndContextLine(reading: {
  readonly valence: ValenceSums;
  readonly label?: string | undefined;
}): string | undefined {
  const valence = formatValence(reading.valence);
  if (valence === '') return undefined;
  const word = reading.label && reading.label !== 'neutral' ? `${reading.label} ` : '';
  return `appraisal · ${word}${valence}`;
}
