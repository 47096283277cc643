/**
 * `@mecha/charter/owner`: the one place an owner-edit capability is minted. Only the apps a
 * person edits the charter from (CLI, web, Slack, TUI) import this subpath; a package, a tool
 * handler or anything else a model can reach must not. See docs/charter.md, "The owner-edit
 * guard".
 */
import { mintOwnerEditCapability, type OwnerEdit, type OwnerSurface } from './owner-edit.js';

export type { OwnerEdit, OwnerSurface } from './owner-edit.js';

/**
 * Mints the capability every charter write takes, recording the surface a person is editing
 * from and who they are. Call it where a person's request arrives — a CLI command, a web form
 * submission, a Slack interaction, a TUI keypress — never on a model's or tool's behalf. The
 * result is frozen and recognised by identity, so it cannot be forged or altered. Throws
 * `CharterArgumentError` for a surface other than `cli`, `web`, `slack` or `tui` (there is no
 * `tool` surface) or an empty `by`.
 *
 * ```ts
 * const edit = mintOwnerEdit('cli', os.userInfo().username);
 * const next = setLineSetpoint(edit, charter, 'replies', 48 * 3_600_000);
 * ```
 */
export function mintOwnerEdit(surface: OwnerSurface, by: string): OwnerEdit {
  return mintOwnerEditCapability(surface, by);
}
