import * as E from 'fp-ts/lib/Either.js';
import { parse, stringify, TomlError } from 'smol-toml';
import * as z from 'zod';
import {
  type Charter,
  charterLinesSchema,
  charterLineTomlSchema,
  invariantBreaches,
} from './charter.js';
import { CharterArgumentError } from './charter-argument-error.js';
import { formatDuration } from './duration.js';
import { type CharterIssue, issuesFromBreaches, issuesFromZod, sortIssues } from './issues.js';

/** What `parseCharter` and `validateCharter` return: every issue found, or the charter. */
export type CharterResult = E.Either<readonly CharterIssue[], Charter>;

/** `charter.toml` as a whole: only `[[line]]` tables, in rank order. */
const charterTomlSchema = z.strictObject({
  line: z
    .array(charterLineTomlSchema, {
      error: (issue) =>
        `must be a list of [[line]] tables, not ${Array.isArray(issue.input) ? 'a list' : typeof issue.input === 'object' ? 'a single table' : `a ${typeof issue.input}`}`,
    })
    .optional(),
});

/** The comment every written charter starts with. */
export const charterTomlHeader = [
  '# mecha charter: your standing priorities, highest first. Rank is position; there are no weights.',
  '# Each [[line]] has an id and text, and may carry a sensor (outbox_age, question_latency or',
  '# request_closure) and a setpoint, a duration such as "48h", "90m" or "2d".',
  '# Only a person edits this charter; nothing proposes a line.',
  '',
].join('\n');

function withIssues(
  found: readonly CharterIssue[],
  charter: () => Charter,
): E.Either<readonly CharterIssue[], Charter> {
  return found.length > 0 ? E.left(sortIssues(found)) : E.right(charter());
}

/**
 * Checks a charter held in memory (from JSON, a form, a test) against every rule: each line
 * valid on its own, ids unique, at most one line per sensor, setpoints positive whole
 * milliseconds. Returns every issue at once, or the charter as a fresh frozen copy.
 */
export function validateCharter(value: unknown): CharterResult {
  const lines = Array.isArray(value) ? (value as readonly unknown[]) : undefined;
  const parsed = charterLinesSchema.safeParse(value);
  const found = [
    ...(parsed.success ? [] : issuesFromZod(parsed.error.issues, lines, [], 'the charter')),
    ...(lines === undefined ? [] : issuesFromBreaches(invariantBreaches(lines), lines)),
  ];
  return withIssues(found, () => parsed.data as Charter);
}

function tomlIssue(error: unknown): CharterIssue {
  if (error instanceof TomlError) {
    const reason = error.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? '';
    return {
      code: 'invalid_toml',
      position: { line: error.line, column: error.column },
      message: `the charter file is not valid TOML (line ${error.line}, column ${error.column}): ${reason}`,
    };
  }
  return { code: 'invalid_toml', message: `the charter file is not valid TOML: ${String(error)}` };
}

/**
 * Reads `charter.toml`. Returns the charter, frozen, with setpoints in milliseconds; or every
 * issue found, each naming the line (by rank, and by id when it has a valid one) and the field.
 * Text that is not TOML at all is an `invalid_toml` issue. Never throws.
 */
export function parseCharter(text: string): CharterResult {
  if (typeof text !== 'string') {
    return E.left([{ code: 'invalid_toml', message: 'the charter file is not text' }]);
  }
  let document: unknown;
  try {
    document = parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    return E.left([tomlIssue(error)]);
  }
  const rawLines = (document as { line?: unknown }).line;
  const lines = Array.isArray(rawLines) ? (rawLines as readonly unknown[]) : undefined;
  const decoded = charterTomlSchema.safeParse(document);
  const found = [
    ...(decoded.success
      ? []
      : issuesFromZod(decoded.error.issues, lines, ['line'], 'the charter file\'s "line"')),
    ...(lines === undefined ? [] : issuesFromBreaches(invariantBreaches(lines), lines)),
  ];
  if (found.length > 0 || !decoded.success) return E.left(sortIssues(found));
  // The decoded lines passed every rule; this makes the result the same frozen shape as a
  // charter validated in memory.
  return validateCharter(decoded.data.line ?? []);
}

/**
 * Writes a charter as `charter.toml`: a header comment, then one `[[line]]` table per line in
 * rank order, fields in the order id, text, sensor, setpoint, setpoints as canonical durations.
 * `parseCharter(stringifyCharter(c))` equals `c` for every valid charter. Throws
 * `CharterArgumentError` for an invalid one, so an invalid file is never written.
 */
export function stringifyCharter(charter: Charter): string {
  const checked = validateCharter(charter);
  if (E.isLeft(checked)) {
    throw new CharterArgumentError(
      'charter',
      `stringifyCharter takes a valid charter: ${checked.left.map((issue) => issue.message).join('; ')}`,
    );
  }
  if (checked.right.length === 0) return charterTomlHeader;
  const line = checked.right.map((entry) => ({
    id: entry.id,
    text: entry.text,
    ...(entry.sensor === undefined ? {} : { sensor: entry.sensor }),
    ...(entry.setpoint === undefined ? {} : { setpoint: formatDuration(entry.setpoint) }),
  }));
  return `${charterTomlHeader}\n${stringify({ line }).trimEnd()}\n`;
}
