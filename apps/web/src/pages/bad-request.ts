import { type Either, left, type Refusal, refusal } from '@mecha/errors';

/** A query or form the board cannot use, refused with a message for the person. */
export function badRequest(message: string): Either<Refusal<'bad_request'>, never> {
  return left(refusal('bad_request', message));
}
