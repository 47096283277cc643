import type { JsonValue } from './content-hash.js';
import type { GraphDialect } from './graph-database.js';

/** What review is told about the session an episode came from. Unknown is never clean. */
export type Taint = 'clean' | 'untrusted' | 'unknown';

/**
 * The same reading in SQL, over an episodes row aliased `e`: clean only when
 * `meta.taint.untrusted` is false and nothing says unknown. PostgreSQL has it as a function
 * (mecha_taint, created by its migration).
 */
export function taintSql(dialect: GraphDialect): string {
  return dialect === 'postgres' ? 'mecha_taint(e.meta)' : sqliteTaint;
}

const sqliteTaint = `CASE
  WHEN coalesce(json_extract(e.meta, '$.taint.unknown'), 0) != 0 THEN 'unknown'
  WHEN json_extract(e.meta, '$.taint.untrusted') = 1 THEN 'untrusted'
  WHEN json_extract(e.meta, '$.taint.untrusted') = 0 THEN 'clean'
  ELSE 'unknown' END`;

/**
 * Reads `meta.taint` as distill writes it: clean only when `untrusted` is explicitly false and
 * nothing says unknown; a missing or torn snapshot is unknown.
 */
export function metaTaint(meta: { readonly [key: string]: JsonValue }): Taint {
  const taint = meta.taint;
  if (taint === null || typeof taint !== 'object' || Array.isArray(taint)) return 'unknown';
  const { untrusted, unknown } = taint as { readonly [key: string]: JsonValue };
  if (unknown !== undefined && unknown !== null && unknown !== false && unknown !== 0)
    return 'unknown';
  if (untrusted === true || untrusted === 1) return 'untrusted';
  if (untrusted === false || untrusted === 0) return 'clean';
  return 'unknown';
}
