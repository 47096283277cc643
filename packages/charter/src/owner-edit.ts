import { CharterArgumentError } from './charter-argument-error.js';

/**
 * The surfaces a person edits the charter from. There is deliberately no `tool` (nor `model`,
 * `agent`, `mcp`): a tool call has no surface to mint a capability with, so no editor operation
 * can ever run on text a model produced.
 */
export const ownerSurfaces = ['cli', 'web', 'slack', 'tui'] as const;

/** One of the four surfaces a person edits the charter from. */
export type OwnerSurface = (typeof ownerSurfaces)[number];

declare const ownerEditBrand: unique symbol;

/**
 * The capability every charter write takes: proof that a person, on one of the owner's
 * surfaces, asked for this edit. Only `mintOwnerEdit` from `@mecha/charter/owner` makes one,
 * and only the apps (CLI, web, Slack, TUI) import that subpath. The editor operations check it
 * at run time against the set of capabilities actually minted, so an object literal with the
 * same fields, a copy, a spread or a proxy of a real one is refused. It is frozen, and records
 * which surface the edit came from and who made it.
 */
export interface OwnerEdit {
  /** Type-level only: makes an object literal fail to type-check as a capability, too. */
  readonly [ownerEditBrand]: true;
  /** The surface the person made the edit on. */
  readonly surface: OwnerSurface;
  /** Who made it, as that surface knows them (an OS user, a Slack user id, a web login). */
  readonly by: string;
}

// Module-private: the only record of which objects are real capabilities. A WeakSet holds them
// by identity, so nothing can be added to it from outside this module and nothing leaks.
const minted = new WeakSet<object>();

/**
 * Mints an owner-edit capability. Re-exported only from the `@mecha/charter/owner` subpath,
 * which only apps import; the main entry never exports it. Throws `CharterArgumentError` for a
 * surface that is not a person's (`'tool'` included) or an empty `by`.
 */
export function mintOwnerEditCapability(surface: OwnerSurface, by: string): OwnerEdit {
  if (!(ownerSurfaces as readonly unknown[]).includes(surface)) {
    throw new CharterArgumentError(
      'surface',
      `only a person's surface (${ownerSurfaces.join(', ')}) can mint an owner edit, not ${JSON.stringify(surface)}`,
    );
  }
  if (typeof by !== 'string' || !/\S/u.test(by)) {
    throw new CharterArgumentError('by', 'an owner edit must record who made it');
  }
  const capability = Object.freeze({ surface, by }) as OwnerEdit;
  minted.add(capability);
  return capability;
}

/**
 * Whether `value` is a capability `mintOwnerEdit` actually minted (in this copy of the package).
 * A forged object with the same fields is not.
 */
export function isOwnerEdit(value: unknown): value is OwnerEdit {
  return typeof value === 'object' && value !== null && minted.has(value);
}
