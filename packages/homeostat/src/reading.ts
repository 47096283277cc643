import type { ValueRead } from '@mecha/errors';

/**
 * A value a sensor or a reader produced, or why it could not: `ValueRead` from
 * `@mecha/errors`, the single-value form of the read shape. Absent is carried as a reason,
 * never as an empty value or a zero.
 */
export type Reading<T> = ValueRead<T>;

export { couldNotRead, readValue } from '@mecha/errors';
