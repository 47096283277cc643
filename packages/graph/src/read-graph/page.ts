import { graphLimits } from '../limits.js';

/** Closed statuses a read leaves out by default, counted so nothing is hidden silently. */
export interface Suppressed {
  readonly closed: number;
  readonly denied: number;
  readonly rejected: number;
  readonly retracted: number;
  readonly redacted: number;
}

/** One page of a read: offset + limit, clamped to the cap, with what was left out. */
export interface Page<T> {
  readonly items: readonly T[];
  /** Items matching the read in all pages. */
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
  /** The requested limit was over graphLimits.pageSizeMax and was clamped. */
  readonly limit_capped: boolean;
  /** Pass as offset for the next page; null on the last page. */
  readonly next_offset: number | null;
  readonly suppressed: Suppressed;
}

export const noneSuppressed: Suppressed = {
  closed: 0,
  denied: 0,
  rejected: 0,
  retracted: 0,
  redacted: 0,
};
export const closedStatuses = ['closed', 'denied', 'rejected', 'retracted'] as const;

export function bounds(input: { offset?: number | undefined; limit?: number | undefined }) {
  const requested = input.limit ?? graphLimits.pageSizeDefault;
  const limit = Math.min(requested, graphLimits.pageSizeMax);
  return { offset: input.offset ?? 0, limit, limit_capped: requested > limit };
}

export function page<T>(
  items: readonly T[],
  total: number,
  at: ReturnType<typeof bounds>,
  suppressed: Suppressed,
): Page<T> {
  const next = at.offset + items.length;
  return {
    items,
    total,
    ...at,
    next_offset: next < total && items.length > 0 ? next : null,
    suppressed,
  };
}
