import * as E from 'fp-ts/lib/Either.js';
import { type Charter, type CharterLine, invariantBreaches } from './charter.js';
import type { CharterSensor } from './charter-sensor.js';
import { validateCharter } from './codec.js';
import { type CharterIssue, issuesFromBreaches, sortIssues } from './issues.js';
import { isOwnerEdit, type OwnerEdit } from './owner-edit.js';

/** Why an edit was refused. Every refusal is a value; nothing here throws. */
export type CharterEditError =
  /** The capability was not minted by `@mecha/charter/owner`: a forgery, a copy, or nothing. */
  | { readonly code: 'forged_capability'; readonly message: string }
  /** No line of the charter has this id. */
  | { readonly code: 'unknown_line'; readonly id: string; readonly message: string }
  /** A rank outside the lines that exist (1 is the top). */
  | {
      readonly code: 'rank_out_of_range';
      readonly rank: number;
      readonly highest: number;
      readonly message: string;
    }
  /** The charter handed in was already invalid, so there is nothing sound to edit. */
  | {
      readonly code: 'invalid_charter';
      readonly issues: readonly CharterIssue[];
      readonly message: string;
    }
  /** The edit would break a rule; `issues` name the line and the field, as `parseCharter` does. */
  | {
      readonly code: 'invalid_edit';
      readonly issues: readonly CharterIssue[];
      readonly message: string;
    };

/** What every editor operation returns: the new charter, or why not. */
export type CharterEdit = E.Either<CharterEditError, Charter>;

type Change = (lines: readonly CharterLine[]) => E.Either<CharterEditError, readonly unknown[]>;

function joined(issues: readonly CharterIssue[]): string {
  return issues.map((issue) => issue.message).join('; ');
}

/**
 * The one path every write takes: the capability is checked first (by identity, against the
 * capabilities actually minted), then the charter handed in, then the change is made on a copy,
 * and the result is checked against every rule before it is returned, frozen. The input is
 * never touched.
 */
function edit(
  capability: OwnerEdit,
  charter: Charter,
  change: Change,
  subject?: string,
): CharterEdit {
  if (!isOwnerEdit(capability)) {
    return E.left({
      code: 'forged_capability',
      message:
        'refused: only a person can edit the charter, with a capability minted by @mecha/charter/owner on the CLI, web, Slack or TUI',
    });
  }
  const before = validateCharter(charter);
  if (E.isLeft(before)) {
    return E.left({
      code: 'invalid_charter',
      issues: before.left,
      message: `the charter being edited is not valid: ${joined(before.left)}`,
    });
  }
  const changed = change(before.right);
  if (E.isLeft(changed)) return changed;
  const after = validateCharter(changed.right);
  if (E.isLeft(after)) {
    const issues =
      subject === undefined ? after.left : blameEdited(after.left, changed.right, subject);
    return E.left({
      code: 'invalid_edit',
      issues,
      message: `refused: ${joined(issues)}`,
    });
  }
  return after;
}

/**
 * A rule across lines (a repeated id or sensor) names the lower line by default. When the
 * edit changed one line, that line is the culprit: a repeat it caused with a line below it is
 * told from its side, so the message names the line the owner just edited.
 */
function blameEdited(
  issues: readonly CharterIssue[],
  lines: readonly unknown[],
  subject: string,
): CharterIssue[] {
  const edited = lines.findIndex((line) => (line as { id?: unknown }).id === subject);
  const swapped = invariantBreaches(lines).filter((breach) => breach.firstIndex === edited);
  if (edited === -1 || swapped.length === 0) return [...issues];
  const turned = issuesFromBreaches(
    swapped.map((breach) => ({ ...breach, index: edited, firstIndex: breach.index })),
    lines,
  );
  const replaced = new Set(swapped.map((breach) => `${breach.index + 1}:${breach.field}`));
  return sortIssues([
    ...issues.filter(
      (issue) =>
        !(
          'rank' in issue &&
          'field' in issue &&
          replaced.has(`${issue.rank}:${issue.field}`) &&
          (issue.code === 'duplicate_id' || issue.code === 'duplicate_sensor')
        ),
    ),
    ...turned,
  ]);
}

function indexOfLine(
  lines: readonly CharterLine[],
  id: string,
): E.Either<CharterEditError, number> {
  const index = lines.findIndex((line) => line.id === id);
  return index === -1
    ? E.left({
        code: 'unknown_line',
        id,
        message: `no charter line has the id ${JSON.stringify(id)}`,
      })
    : E.right(index);
}

function checkRank(rank: number, highest: number): E.Either<CharterEditError, number> {
  return Number.isSafeInteger(rank) && rank >= 1 && rank <= highest
    ? E.right(rank)
    : E.left({
        code: 'rank_out_of_range',
        rank,
        highest,
        message: `rank ${String(rank)} is not a position in this charter: use a whole number from 1 (the top) to ${highest}`,
      });
}

/** Applies `update` to the line with `id`, leaving every other line as it was. */
function updateLine(id: string, update: (line: CharterLine) => object): Change {
  return (lines) => {
    const found = indexOfLine(lines, id);
    if (E.isLeft(found)) return found;
    return E.right(lines.map((line, index) => (index === found.right ? update(line) : line)));
  };
}

/** A copy of `line` without `field`. */
function without(line: CharterLine, field: 'sensor' | 'setpoint'): object {
  return Object.fromEntries(Object.entries(line).filter(([key]) => key !== field));
}

/**
 * Adds a line at `rank` (1 is the top; the default, one past the last line, puts it at the
 * bottom), moving the lines at and below that rank down by one. The line must have a new id,
 * non-empty text, a sensor no other line carries and a positive setpoint in milliseconds.
 */
export function addLine(
  capability: OwnerEdit,
  charter: Charter,
  line: CharterLine,
  rank?: number,
): CharterEdit {
  return edit(capability, charter, (lines) => {
    const at = checkRank(rank ?? lines.length + 1, lines.length + 1);
    if (E.isLeft(at)) return at;
    const added = typeof line === 'object' && line !== null ? { ...line } : line;
    return E.right([...lines.slice(0, at.right - 1), added, ...lines.slice(at.right - 1)]);
  });
}

/**
 * Moves the line with `id` to `rank` (1 is the top, the last line's rank the bottom); the lines
 * between shift by one. Rank is the only way a line's importance changes: there are no weights.
 */
export function moveLine(
  capability: OwnerEdit,
  charter: Charter,
  id: string,
  rank: number,
): CharterEdit {
  return edit(capability, charter, (lines) => {
    const found = indexOfLine(lines, id);
    if (E.isLeft(found)) return found;
    const at = checkRank(rank, lines.length);
    if (E.isLeft(at)) return at;
    const rest = lines.filter((_, index) => index !== found.right);
    const moved = lines[found.right] as CharterLine;
    return E.right([...rest.slice(0, at.right - 1), moved, ...rest.slice(at.right - 1)]);
  });
}

/** Removes the line with `id`; the lines below it move up one rank. */
export function removeLine(capability: OwnerEdit, charter: Charter, id: string): CharterEdit {
  return edit(capability, charter, (lines) => {
    const found = indexOfLine(lines, id);
    if (E.isLeft(found)) return found;
    return E.right(lines.filter((_, index) => index !== found.right));
  });
}

/** Replaces the text of the line with `id`; the text must hold something besides whitespace. */
export function setLineText(
  capability: OwnerEdit,
  charter: Charter,
  id: string,
  text: string,
): CharterEdit {
  return edit(
    capability,
    charter,
    updateLine(id, (line) => ({ ...line, text })),
  );
}

/** Makes the line with `id` watch `sensor`, which no other line may already carry. */
export function setLineSensor(
  capability: OwnerEdit,
  charter: Charter,
  id: string,
  sensor: CharterSensor,
): CharterEdit {
  return edit(
    capability,
    charter,
    updateLine(id, (line) => ({ ...line, sensor })),
    id,
  );
}

/**
 * Takes the sensor off the line with `id`. Its store falls back to the default patience and to
 * the unwatched weight; a setpoint the line keeps is inert until it carries a sensor again.
 */
export function clearLineSensor(capability: OwnerEdit, charter: Charter, id: string): CharterEdit {
  return edit(
    capability,
    charter,
    updateLine(id, (line) => without(line, 'sensor')),
  );
}

/**
 * Sets the setpoint of the line with `id`: a positive whole number of milliseconds (use
 * `parseDuration('48h')` for what a person typed). It is the patience of the store the line's
 * sensor watches; on a line with no sensor it is kept but has no effect.
 */
export function setLineSetpoint(
  capability: OwnerEdit,
  charter: Charter,
  id: string,
  setpoint: number,
): CharterEdit {
  return edit(
    capability,
    charter,
    updateLine(id, (line) => ({ ...line, setpoint })),
  );
}

/** Takes the setpoint off the line with `id`: its store goes back to the default patience. */
export function clearLineSetpoint(
  capability: OwnerEdit,
  charter: Charter,
  id: string,
): CharterEdit {
  return edit(
    capability,
    charter,
    updateLine(id, (line) => without(line, 'setpoint')),
  );
}
