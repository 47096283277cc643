import type { SignedContributionRow } from './contribution-table.js';
import type { Cite, GoalError, GoalRef } from './schemas/goal-error.js';

/**
 * Mints the signed error one row of the contribution table contributes: its sign, channel and
 * agency come from the row, never from the caller; `controllable` stays unfilled.
 */
export function signedError(
  row: SignedContributionRow,
  cite: Cite,
  goal: GoalRef | undefined,
  visible: boolean = row.visible === true,
): GoalError {
  return {
    goal,
    channel: row.channel,
    sign: row.sign,
    agency: row.agency,
    visible,
    controllable: 'unfilled',
    cite,
  };
}
