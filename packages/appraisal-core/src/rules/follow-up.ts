import type { TaskStatus } from '../schemas/board.js';
import type { Channel, Label } from '../schemas/goal-error.js';
import { type SignedEntry, type SignedRowId, signedRows } from './signed-entry.js';

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
 * The contribution-table rows that name a run cut short: the negative counters the table fires
 * from a stop cause (a ceiling, a loop stop, an empty output, a final failed call).
 */
export const cutShortRows: ReadonlySet<SignedRowId> = new Set(
  signedRows.flatMap(([id, row]) =>
    row.channel === 'counter' && row.sign < 0 && row.stopCauses.length > 0 ? [id] : [],
  ),
);

/**
 * `cut_short`: an entry signed by a stop-cause row. It reads the row that signed each entry,
 * never the entry's cite, so it cannot drift from the table.
 */
export function isCutShort(entries: readonly SignedEntry[]): boolean {
  return entries.some((entry) => cutShortRows.has(entry.row as SignedRowId));
}

/**
 * Whether a closure stages one follow-up: only a move into `done` (the owner accepting the
 * work; `dropped` declines it), and only when the label names residue or the run was cut
 * short. Never a threshold over raw signs.
 */
export function stagesFollowUp(
  to: TaskStatus,
  label: Label,
  entries: readonly SignedEntry[],
): boolean {
  return to === 'done' && (residueLabels.has(label) || isCutShort(entries));
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
  entries: readonly SignedEntry[],
): FollowUp {
  const fired = new Set(
    entries.filter((entry) => entry.error.sign < 0).map((entry) => entry.error.channel),
  );
  const channels = channelOrder.filter((channel) => fired.has(channel));
  const cutShort = isCutShort(entries);
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
