/**
 * A value a sensor or a reader produced, or why it could not: absent is carried as a reason,
 * never as an empty value or a zero.
 */
export type Reading<T> =
  | { readonly read: true; readonly value: T }
  | { readonly read: false; readonly reason: string };

/** A reading that succeeded. */
export function readValue<T>(value: T): Reading<T> {
  return { read: true, value };
}

/** A reading that failed, with the reason a person will be shown. */
export function couldNotRead(reason: string): Reading<never> {
  return { read: false, reason };
}
