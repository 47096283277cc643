import type { TaskStatus } from '../schemas/board.js';
import type { Channel, GoalError, Label } from '../schemas/goal-error.js';
import { type ContributionRow, contributionTable } from './contribution-table.js';

/**
 * Labels that name residue: work left over that one task on the board could pick up. Distress
 * is not one (a verdict the owner already delivered), nor are the positive and mood-like words.
 */
export const residueLabels: ReadonlySet<Label> = new Set<Label>([
  'anger',
  'regret',
  'disappointment',
  'frustration',
  'embarrassment',
  'guilt',
]);

/**
 * The counters that name a run cut short: those the contribution table fires from a stop
 * cause (a ceiling, a loop stop, an empty output, a final failed call).
 */
export const cutShortCounters: ReadonlySet<string> = new Set(
  Object.values(contributionTable as Record<string, ContributionRow>).flatMap(
    (row): readonly string[] =>
      row.kind === 'signed' && row.channel === 'counter' && row.stopCauses.length > 0
        ? row.counters
        : [],
  ),
);

/** `cut_short`: a negative counter whose cite is the stop cause or the silent failure. */
export function isCutShort(errors: readonly GoalError[]): boolean {
  return errors.some(
    (error) =>
      error.channel === 'counter' &&
      error.sign < 0 &&
      error.cite.kind === 'counter' &&
      cutShortCounters.has(error.cite.name),
  );
}

/**
 * Whether a closure stages one follow-up: only a move into `done` (the owner accepting the
 * work; `dropped` declines it), and only when the label names residue or the run was cut
 * short. Never a threshold over raw signs.
 */
export function stagesFollowUp(
  to: TaskStatus,
  label: Label,
  errors: readonly GoalError[],
): boolean {
  return to === 'done' && (residueLabels.has(label) || isCutShort(errors));
}

/**
 * A follow-up task, composed only from typed fields the harness minted: the original task's id
 * (never its name, which may be a stranger's subject line), the label, and the channels fired.
 */
export interface FollowUp {
  readonly original_task_id: string;
  /** The project to file it under, from the original row's `project_id`. */
  readonly project_id?: string;
  readonly label: Label;
  readonly cut_short: boolean;
  /** The channels that carried a negative signal, in a fixed order. */
  readonly channels: readonly Channel[];
  /** The title to file, built from the fields above and nothing else. */
  readonly title: string;
}

const channelOrder: readonly Channel[] = [
  'intervention',
  'edit',
  'counter',
  'setpoint',
  'commitment',
  'appraisal',
];

/**
 * Builds the follow-up for a closure that stages one. It reads the task's id and project id
 * only; the task row may be passed whole, and its title is never read.
 */
export function followUpFor(
  task: { readonly id: string; readonly project_id?: string | undefined },
  label: Label,
  errors: readonly GoalError[],
): FollowUp {
  const fired = new Set(errors.filter((error) => error.sign < 0).map((error) => error.channel));
  const channels = channelOrder.filter((channel) => fired.has(channel));
  const cutShort = isCutShort(errors);
  const words = [label === 'neutral' ? undefined : label, cutShort ? 'cut short' : undefined]
    .filter((word) => word !== undefined)
    .join(', ');
  const fields = channels.length === 0 ? '' : ` (${channels.join(', ')})`;
  return {
    original_task_id: task.id,
    ...(task.project_id === undefined ? {} : { project_id: task.project_id }),
    label,
    cut_short: cutShort,
    channels,
    title: `Follow up on ${task.id}: ${words === '' ? 'residue' : words}${fields}`,
  };
}
