/**
 * The two sides of an fp-ts `Either`, read structurally: the packages return them, and the CLI
 * only ever branches on them, so it does not need fp-ts itself at run time.
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
