import type { Refusal } from '@mecha/errors';

/**
 * Why an owner's act did not happen, as a value every surface can show: `request` when the
 * request itself is malformed (a surface shows it as a usage error), `state` when the home's
 * state refuses it. Nothing was written unless the message says what stands.
 */
export interface OwnerRefusal {
  readonly state: 'refused';
  readonly reason:
    | 'bad_request'
    | 'unreadable'
    | 'not_found'
    | 'ambiguous'
    | 'unchanged'
    | 'nobody_present'
    | 'rejected'
    | 'not_written';
  /** One line, ready to print after the surface's own prefix. */
  readonly message: string;
}

/** The kinds an owner's act is refused with: {@link OwnerRefusal}'s reasons. */
export type OwnerRefusalKind = OwnerRefusal['reason'];

/**
 * An owner's act refused, as the `Refusal` of `@mecha/errors` (`kind` is the reason): what the
 * acts converted to `Either<Refusal, T>` answer on their left.
 */
export type OwnerActRefusal = Refusal<OwnerRefusalKind>;

/** An {@link OwnerRefusal} with its reason and message. */
export function ownerRefusal(reason: OwnerRefusal['reason'], message: string): OwnerRefusal {
  return { state: 'refused', reason, message };
}
