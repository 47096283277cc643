/** One line a reader could not use: where it was and why. */
export interface SkippedLine {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
}

/**
 * What a reader got from one source: the one failure shape for reads. `unreadable` is never an
 * empty `read`: absent is not zero, and a readout built on it is partial with `null` counts.
 * `partial` keeps every intact record and names each line it skipped.
 */
export type SourceRead<T> =
  | { readonly state: 'read'; readonly records: readonly T[] }
  | {
      readonly state: 'partial';
      readonly records: readonly T[];
      readonly skipped: readonly SkippedLine[];
    }
  | { readonly state: 'unreadable'; readonly reason: string };

/**
 * One value read from a source (a sensor, a file, a section of a home): the single-value form
 * of {@link SourceRead}, with the same `state` and the same unread `reason`. There is no
 * `partial`: one value is read or it is not.
 */
export type ValueRead<T> =
  | { readonly state: 'read'; readonly value: T }
  | { readonly state: 'unreadable'; readonly reason: string };

/** The records a source yielded, or `undefined` when it could not be read at all. */
export function recordsOf<T>(source: SourceRead<T>): readonly T[] | undefined {
  return source.state === 'unreadable' ? undefined : source.records;
}

/** Whether a source was read whole: not unreadable and with nothing skipped. */
export function isComplete<T>(source: SourceRead<T>): boolean {
  return source.state === 'read';
}

/** A value that was read. */
export function readValue<T>(value: T): ValueRead<T> {
  return { state: 'read', value };
}

/** A value that could not be read, with the reason a person will be shown. */
export function couldNotRead(reason: string): ValueRead<never> {
  return { state: 'unreadable', reason };
}
