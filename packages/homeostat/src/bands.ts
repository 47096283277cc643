const hour = 60 * 60 * 1000;
const day = 24 * hour;

/**
 * A count said as a band rather than a number, for anything a model could treat as a score:
 * `no`, `one`, `a few` (2–4), `several` (5–9) or `many` (10 or more).
 */
export function countBand(count: number): 'no' | 'one' | 'a few' | 'several' | 'many' {
  if (count <= 0) return 'no';
  if (count === 1) return 'one';
  if (count <= 4) return 'a few';
  if (count <= 9) return 'several';
  return 'many';
}

/**
 * An age said as a band: `no more than an hour`, `over an hour`, `over a day`, `over a week`
 * or `over a month` (30 days). Ages are milliseconds.
 */
export function ageBand(
  age: number,
): 'no more than an hour' | 'over an hour' | 'over a day' | 'over a week' | 'over a month' {
  if (age > 30 * day) return 'over a month';
  if (age > 7 * day) return 'over a week';
  if (age > day) return 'over a day';
  if (age > hour) return 'over an hour';
  return 'no more than an hour';
}
