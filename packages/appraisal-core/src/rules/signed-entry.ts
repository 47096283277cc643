import type { Cite, GoalError, GoalRef } from '../schemas/goal-error.js';
import type { EventSource } from '../schemas/transcript.js';
import {
  type ContributionRow,
  type ContributionRowId,
  contributionTable,
  type SignedContributionRow,
} from './contribution-table.js';

/** The id of a row of the contribution table that signs a constant. */
export type SignedRowId = {
  [Id in ContributionRowId]: (typeof contributionTable)[Id] extends { readonly kind: 'signed' }
    ? Id
    : never;
}[ContributionRowId];

/** The id of a row whose sign is read from the record itself (a legacy verdict). */
export type RecordedRowId = {
  [Id in ContributionRowId]: (typeof contributionTable)[Id] extends { readonly kind: 'recorded' }
    ? Id
    : never;
}[ContributionRowId];

/**
 * One signed entry: the error a recorded outcome contributes, with the id of the contribution
 * table row that signed it. Readers that ask "what kind of outcome was this" (successes, owner
 * acts, withdrawals, the follow-up) read `row` instead of re-deriving the rule.
 */
export interface SignedEntry {
  readonly row: SignedRowId | RecordedRowId;
  readonly error: GoalError;
  /** Where the event that signed it came from, when it was imported from another tool's log. */
  readonly source?: EventSource;
}

/**
 * Mints the entry one row of the contribution table contributes: its sign, channel and agency
 * come from the row, never from the caller; `controllable` stays unfilled.
 */
export function signEntry(
  rowId: SignedRowId,
  cite: Cite,
  goal: GoalRef | undefined,
  visible?: boolean,
): SignedEntry {
  const row: SignedContributionRow = contributionTable[rowId];
  return {
    row: rowId,
    error: {
      goal,
      channel: row.channel,
      sign: row.sign,
      agency: row.agency,
      visible: visible ?? row.visible === true,
      controllable: 'unfilled',
      cite,
    },
  };
}

/** Every signing row of the contribution table with its id, in table order. */
export const signedRows: readonly (readonly [SignedRowId, SignedContributionRow])[] = (
  Object.entries(contributionTable) as [ContributionRowId, ContributionRow][]
).flatMap(([id, row]) => (row.kind === 'signed' ? [[id as SignedRowId, row] as const] : []));

/** The errors of a list of entries, in the same order. */
export function errorsOf(entries: readonly SignedEntry[]): GoalError[] {
  return entries.map((entry) => entry.error);
}
