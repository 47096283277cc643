import type { EitherLike } from './either.js';

/**
 * Why an act did not happen. Every act in mecha answers `Either<Refusal, T>`; the kinds cover:
 *
 * - a write that did not happen: `invalid_record` (a record its schema refused; nothing was
 *   written), `lock_timeout` (a lock held too long by a live process), `io` (a file system
 *   error), `vanished` (a store created here has gone; a writer never starts a new, empty
 *   history over it), `no_home` (run `mecha init`, or open it with `create: true`), `refused`
 *   (a move the rules refuse);
 * - an owner's act refused: `bad_request` (the request itself is malformed; a surface shows a
 *   usage error), `unreadable`, `not_found`, `ambiguous`, `unchanged`, `nobody_present`,
 *   `rejected`, `not_written`;
 * - a move from a surface: `board_unreadable`, `no_task`, `no_sessions`, `hook_refused`;
 * - a service (the graph): `unreachable` (it could not be connected to, is not the server
 *   expected, or its config is incomplete), `call_failed` (one call failed or was refused), and
 *   `connection_lost` (the connection is gone; the caller should stop calling on it).
 */
export type RefusalKind =
  | 'invalid_record'
  | 'lock_timeout'
  | 'io'
  | 'vanished'
  | 'no_home'
  | 'refused'
  | 'bad_request'
  | 'unreadable'
  | 'not_found'
  | 'ambiguous'
  | 'unchanged'
  | 'nobody_present'
  | 'rejected'
  | 'not_written'
  | 'board_unreadable'
  | 'no_task'
  | 'no_sessions'
  | 'hook_refused'
  | 'unreachable'
  | 'call_failed'
  | 'connection_lost';

/**
 * An act's failure, as a value: its kind and one line for people (`message`, ready to print
 * after a surface's own prefix). A package narrows `K` to the kinds it can answer and may add
 * readonly fields (the `path` a write failed on, say).
 */
export interface Refusal<K extends RefusalKind = RefusalKind> {
  readonly kind: K;
  readonly message: string;
}

/** A {@link Refusal} of `kind`, saying `message`. */
export function refusal<K extends RefusalKind>(kind: K, message: string): Refusal<K> {
  return { kind, message };
}

/**
 * An fp-ts `Either`, spelled structurally so a package can return one without loading fp-ts:
 * fp-ts's own `Either` values are these, and these are fp-ts's.
 */
export type Either<L, R> = EitherLike<L, R>;

/** The failure side of an {@link Either}. */
export function left<L>(value: L): Either<L, never> {
  return { _tag: 'Left', left: value };
}

/** The success side of an {@link Either}. */
export function right<R>(value: R): Either<never, R> {
  return { _tag: 'Right', right: value };
}
