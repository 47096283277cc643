import { type Refusal, refusal } from '@mecha/errors';
import * as E from 'fp-ts/lib/Either.js';

/**
 * The kinds an owner's act is refused with: `bad_request` when the request itself is malformed
 * (a surface shows it as a usage error), any other when the home's state refuses it.
 */
export type OwnerRefusalKind =
  | 'bad_request'
  | 'unreadable'
  | 'not_found'
  | 'ambiguous'
  | 'unchanged'
  | 'nobody_present'
  | 'rejected'
  | 'not_written';

/** The kinds a closure or a reopen from a surface is refused with. */
export type SurfaceRefusalKind =
  | 'board_unreadable'
  | 'no_task'
  | 'nobody_present'
  | 'no_sessions'
  | 'hook_refused'
  | 'not_written';

/**
 * An owner's act refused, as the `Refusal` of `@mecha/errors`: what every owner act answers on
 * the left of its `Either`. `message` is one line, ready to print after the surface's own
 * prefix; nothing was written unless it says what stands. `K` narrows the kinds one act can
 * answer (an owner's kinds unless given).
 */
export type OwnerActRefusal<K extends OwnerRefusalKind | SurfaceRefusalKind = OwnerRefusalKind> =
  Refusal<K>;

/** An owner's act refused with `kind`, saying `message`, as the left of an `Either`. */
export function ownerRefused<K extends OwnerRefusalKind | SurfaceRefusalKind>(
  kind: K,
  message: string,
): E.Either<OwnerActRefusal<K>, never> {
  return E.left(refusal(kind, message));
}
