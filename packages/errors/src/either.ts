import { UnexpectedLeftError } from './unexpected-left-error.js';

/**
 * The two sides of an fp-ts `Either`, read structurally: a surface that only branches on what
 * a package returned need not load fp-ts itself.
 */
export type EitherLike<L, R> =
  | { readonly _tag: 'Left'; readonly left: L }
  | { readonly _tag: 'Right'; readonly right: R };

/** Whether an `Either` holds its left (failure) side. */
export function isLeft<L, R>(
  value: EitherLike<L, R>,
): value is { readonly _tag: 'Left'; readonly left: L } {
  return value._tag === 'Left';
}

function describe(value: unknown): string {
  if (typeof value === 'object' && value !== null && 'message' in value) {
    return String((value as { message: unknown }).message);
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The right side of an `Either` the caller is sure succeeded (a test's setup, a fixture);
 * otherwise throws `UnexpectedLeftError` saying `what` and the failure. Expected failures at
 * an IO seam are handled as values, never through this.
 */
export function rightOrThrow<L, R>(value: EitherLike<L, R>, what = 'a result'): R {
  if (isLeft(value)) {
    throw new UnexpectedLeftError(
      `expected ${what} to succeed, but it failed: ${describe(value.left)}`,
      value.left,
    );
  }
  return value.right;
}

/** The left side of an `Either` the caller is sure failed (a test of a refusal); else throws. */
export function leftOrThrow<L, R>(value: EitherLike<L, R>, what = 'a result'): L {
  if (!isLeft(value)) {
    throw new UnexpectedLeftError(
      `expected ${what} to fail, but it succeeded with ${describe(value.right)}`,
      value.right,
    );
  }
  return value.left;
}
