import { appraisalChip, type Label, type ValenceSums } from '@mecha/appraisal-core';

/**
 * The one context line posted in a Slack thread after a run: `appraisal · −0.5`, or
 * `appraisal · anger −0.5` when the label names a word. Nothing for a silent run.
 */
export function runEndContextLine(reading: {
  readonly valence: ValenceSums;
  readonly label?: Label | undefined;
}): string | undefined {
  const chip = appraisalChip(reading);
  return chip === undefined ? undefined : `appraisal · ${chip.text}`;
}
