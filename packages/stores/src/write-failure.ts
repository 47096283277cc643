import type { Refusal } from '@mecha/errors';

/**
 * Why a write did not happen, as a value: a record its schema refused (nothing was written),
 * a lock held too long by a live process, a file system error, a store that was created here
 * and has vanished (a writer never starts a new, empty history over it), or a move the rules
 * refuse (closing a task with nobody present, say), or a home that does not exist (`no_home`:
 * run `mecha init`, or open it with `create: true`). `message` is for people.
 * A `Refusal` from `@mecha/errors`, with the `path` or `index` it concerns.
 */
export type WriteFailure =
  | (Refusal<'invalid_record'> & {
      /** The position of the refused record in the batch. */
      readonly index: number;
    })
  | (Refusal<'lock_timeout'> & { readonly path: string })
  | (Refusal<'io'> & { readonly path: string })
  | (Refusal<'vanished'> & { readonly path: string })
  | (Refusal<'no_home'> & { readonly path: string })
  | Refusal<'refused'>;
