import type { Label } from '../schemas/goal-error.js';
import { type AppraisalChip, appraisalChip } from './appraisal-chip.js';
import type { ValenceSums } from './format-valence.js';

/**
 * The TUI's status-strip badge after a run: the chip's text (the label word, when there is one,
 * before the valence as numbers, `…` trailing when the run compacted and the number is partial)
 * in amber on a negative reading and grey on a positive-only one. Built from `appraisalChip`, so
 * the badge, the web chip and Slack's line never disagree.
 */
export interface StatusBadge {
  readonly text: string;
  readonly tone: 'amber' | 'grey';
  /** The run compacted (or a source was not read whole): the number is partial. */
  readonly partial: boolean;
  /** The chip the badge was drawn from, for a surface that shows more of it. */
  readonly chip: AppraisalChip;
}

/** The badge for a reading, or `undefined` when the run signed nothing: no badge at all. */
export function statusBadge(reading: {
  readonly valence: ValenceSums;
  readonly label?: Label | undefined;
}): StatusBadge | undefined {
  const chip = appraisalChip(reading);
  if (chip === undefined) return undefined;
  return {
    text: chip.text,
    tone: chip.tone === 'negative' ? 'amber' : 'grey',
    partial: chip.partial,
    chip,
  };
}

/** What happens to the strip: a run ends (with its live reading), a run starts, or `/clear`. */
export type BadgeEvent =
  | {
      readonly type: 'run_end';
      readonly reading: { readonly valence: ValenceSums; readonly label?: Label | undefined };
    }
  | { readonly type: 'run_start' }
  | { readonly type: 'clear' };

/**
 * The badge after an event, by the clearing rules: a finished run shows its badge (none when it
 * signed nothing), the next run's start clears it, and so does `/clear`. It does not depend on
 * whether a transcript was kept (`--no-session`): the reading is a function of the run.
 */
export function badgeAfter(
  _current: StatusBadge | undefined,
  event: BadgeEvent,
): StatusBadge | undefined {
  return event.type === 'run_end' ? statusBadge(event.reading) : undefined;
}
