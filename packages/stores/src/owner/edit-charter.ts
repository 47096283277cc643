import {
  addLine,
  type Charter,
  type CharterEdit,
  type CharterEditError,
  type CharterIssue,
  type CharterLine,
  type CharterSensor,
  clearLineSensor,
  clearLineSetpoint,
  moveLine,
  type OwnerEdit,
  removeLine,
  setLineSensor,
  setLineSetpoint,
  setLineText,
} from '@mecha/charter';
import * as E from 'fp-ts/lib/Either.js';
import type { MechaHome } from '../home-context.js';
import { runPresence } from '../run-registration.js';
import { type OwnerActRefusal, type OwnerRefusalKind, ownerRefused } from './owner-refusal.js';

/**
 * One change to the charter, as data a surface sends (a CLI command, a web form, a Slack
 * interaction). Ranks count from 1 at the top; durations are milliseconds.
 */
export type CharterChange =
  | { readonly op: 'add'; readonly line: CharterLine; readonly rank?: number }
  | { readonly op: 'move'; readonly id: string; readonly rank: number }
  | { readonly op: 'remove'; readonly id: string }
  | { readonly op: 'set_text'; readonly id: string; readonly text: string }
  | { readonly op: 'set_sensor'; readonly id: string; readonly sensor: CharterSensor }
  | { readonly op: 'set_setpoint'; readonly id: string; readonly setpoint: number }
  | { readonly op: 'clear_sensor'; readonly id: string }
  | { readonly op: 'clear_setpoint'; readonly id: string };

/** A charter edited and written. */
export interface EditedCharter {
  readonly state: 'edited';
  /** The charter as written. */
  readonly charter: Charter;
}

function apply(capability: OwnerEdit, charter: Charter, change: CharterChange): CharterEdit {
  switch (change.op) {
    case 'add':
      return addLine(capability, charter, change.line, change.rank);
    case 'move':
      return moveLine(capability, charter, change.id, change.rank);
    case 'remove':
      return removeLine(capability, charter, change.id);
    case 'set_text':
      return setLineText(capability, charter, change.id, change.text);
    case 'set_sensor':
      return setLineSensor(capability, charter, change.id, change.sensor);
    case 'set_setpoint':
      return setLineSetpoint(capability, charter, change.id, change.setpoint);
    case 'clear_sensor':
      return clearLineSensor(capability, charter, change.id);
    case 'clear_setpoint':
      return clearLineSetpoint(capability, charter, change.id);
  }
}

/** A request-level issue: the line as asked for is malformed, whatever the charter holds. */
const requestIssues: ReadonlySet<CharterIssue['code']> = new Set([
  'invalid_field',
  'invalid_line',
  'unknown_field',
]);

/**
 * Why the charter refused an edit, as a surface shows it: a malformed line (a bad id, an empty
 * text) is `bad_request`, whatever the charter holds; what depends on the charter (a line that
 * does not exist, a repeated id or sensor, a rank past its end) is `rejected`.
 */
function refusalKind(error: CharterEditError | undefined): OwnerRefusalKind {
  return error?.code === 'invalid_edit' &&
    error.issues.every((issue) => requestIssues.has(issue.code))
    ? 'bad_request'
    : 'rejected';
}

/**
 * The one path every charter edit takes. It refuses inside any run's shell (no model writes a
 * line, with or without a person present), then reads the charter, applies the changes in
 * order with the capability the surface minted where the person's request arrived, and writes
 * the result, all under the charter's lock. One rejected change writes nothing.
 */
export async function editCharter(
  home: MechaHome,
  request: {
    /** Minted by the surface with `mintOwnerEdit` from `@mecha/charter/owner`. */
    readonly capability: OwnerEdit;
    /** The environment the request came from (a run's shell names its run there). */
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly changes: readonly CharterChange[];
  },
): Promise<E.Either<OwnerActRefusal, EditedCharter>> {
  const presence = await runPresence(home, request.env);
  if (presence.kind !== 'terminal') {
    return ownerRefused(
      'nobody_present',
      'refused: this command was started by a run, and only a person edits the charter (from a terminal, the web board, Slack or the TUI)',
    );
  }
  let refusedBy: CharterEditError | undefined;
  const edited = await home.editCharter((charter) => {
    let next: CharterEdit = E.right(charter);
    for (const change of request.changes) {
      if (E.isLeft(next)) break;
      next = apply(request.capability, next.right, change);
    }
    if (E.isLeft(next)) refusedBy = next.left;
    return next;
  });
  switch (edited.state) {
    case 'edited':
      return E.right(edited);
    case 'unreadable':
      return ownerRefused('unreadable', `the charter was not changed: ${edited.reason}`);
    case 'rejected':
      return ownerRefused(refusalKind(refusedBy), edited.message);
    case 'not_written':
      return ownerRefused('not_written', `the charter was not changed: ${edited.failure.message}`);
  }
}
