import type { SourceRead, TextAppraisalRecord } from '@mecha/appraisal-core';
import type { MechaHome } from '../home-context.js';

/** The text appraisals on record, newest first, as the `--text` readout shows them. */
export interface TextAppraisalReadout {
  /** The store as read: whether it was read whole, and what was skipped or why it was not. */
  readonly source: SourceRead<TextAppraisalRecord>;
  /** How many are on record; null when the store could not be read (absent is not zero). */
  readonly total: number | null;
  /** The newest `limit` of them (all by default), newest first; ties by id, descending. */
  readonly newest: readonly TextAppraisalRecord[];
}

/** Reads the text appraisals on record and keeps the newest `limit`. */
export async function textAppraisalReadout(
  home: MechaHome,
  options: { readonly limit?: number } = {},
): Promise<TextAppraisalReadout> {
  const source = await home.appraisals.textAppraisals.read();
  if (source.state === 'unreadable') return { source, total: null, newest: [] };
  const newest = [...source.records]
    .sort(
      (a, b) => Date.parse(b.at) - Date.parse(a.at) || b.appraisal_id.localeCompare(a.appraisal_id),
    )
    .slice(0, options.limit ?? Number.POSITIVE_INFINITY);
  return { source, total: source.records.length, newest };
}
