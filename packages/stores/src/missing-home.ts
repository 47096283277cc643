import { existsSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import { contextOf } from './home-context.js';
import type { HomeContext } from './jsonl-store.js';
import type { MechaHome } from './open-home.js';
import type { WriteFailure } from './write-failure.js';

/**
 * The message for a home that does not exist: it names `mecha init`, and the explicit
 * `create: true` a library caller passes to have its first write make the folder.
 */
export function missingHomeMessage(path: string): string {
  return `there is no mecha home at ${path}: create one with 'mecha init --home ${path}', or open it with openHome(path, { create: true }) to have the first write make it`;
}

/**
 * Refuses a write into a home whose folder does not exist (`no_home`), unless the handle was
 * opened with `create: true`: absent is an error, never a new, empty home made by accident.
 */
export function refuseMissingContext(context: HomeContext): E.Either<WriteFailure, void> {
  if (context.create || existsSync(context.path)) return E.right(undefined);
  return E.left({ kind: 'no_home', path: context.path, message: missingHomeMessage(context.path) });
}

/**
 * For a writer outside the stores that puts files into a home (an importer, a model's memory):
 * refuses, as a `no_home` failure naming `mecha init`, a home whose folder does not exist,
 * unless the handle was opened with `create: true`. Check it before making any folder there.
 */
export function refuseMissingHome(home: MechaHome): E.Either<WriteFailure, void> {
  return refuseMissingContext(contextOf(home));
}
