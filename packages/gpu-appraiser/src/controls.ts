/** The appraisal flags: writes=1, recall=2, background=4. */
export const appraisalFlags = { writes: 1, recall: 2, background: 4 } as const;

/** The flags a new store starts with: everything off. */
export const defaultFlags = 0;

/** The flags as booleans. */
export interface FlagSet {
  readonly writes: boolean;
  readonly recall: boolean;
  readonly background: boolean;
}

/** Reads a flag number. */
export function flagSet(flags: number): FlagSet {
  return {
    writes: (flags & appraisalFlags.writes) !== 0,
    recall: (flags & appraisalFlags.recall) !== 0,
    background: (flags & appraisalFlags.background) !== 0,
  };
}

/** `on`: writes and recall, keeping whatever background setting there was. */
export function flagsForOn(current: number): number {
  return appraisalFlags.writes | appraisalFlags.recall | (current & appraisalFlags.background);
}

/** `off`: no writes, no recall defaults, no background work. */
export function flagsForOff(): number {
  return 0;
}

/** The flags named switched on or off, the others kept. */
export function flagsWith(current: number, switches: Partial<FlagSet>): number {
  let flags = current;
  for (const name of ['writes', 'recall', 'background'] as const) {
    const on = switches[name];
    if (on === undefined) continue;
    flags = on ? flags | appraisalFlags[name] : flags & ~appraisalFlags[name];
  }
  return flags;
}

/** Background work switched on or off, the other flags kept. */
export function flagsWithBackground(current: number, on: boolean): number {
  return flagsWith(current, { background: on });
}

/** The policy controls: `paused` and `stopped` suspend appraisal admission. */
export type AppraisalPolicy = 'run' | 'paused' | 'stopped';
