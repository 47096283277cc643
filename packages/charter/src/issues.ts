import type * as z from 'zod';
import {
  breachMessage,
  type CharterLineField,
  charterLineFields,
  type InvariantBreach,
  lineIdProblem,
} from './charter.js';
import type { CharterSensor } from './charter-sensor.js';

/** Where a line sits: its rank (1 for the top line) and its id when it has a valid one. */
interface LinePlace {
  /** 1-based position in the charter: rank 1 is the top line (the first `[[line]]`). */
  readonly rank: number;
  /** The line's id, present only when the line has a valid id to name it by. */
  readonly id?: string;
}

/**
 * One thing wrong with a charter, as a value. Every issue about a line names it by rank (and by
 * id when it has a valid one) and names the field; `message` is a sentence that says all of it,
 * for example `charter line 2 "replies", setpoint: "48x" is not a duration: …`.
 */
export type CharterIssue =
  /** The text is not TOML at all; `position` is where the TOML parser stopped (1-based). */
  | {
      readonly code: 'invalid_toml';
      readonly message: string;
      readonly position?: { readonly line: number; readonly column: number };
    }
  /** The document as a whole is wrong: an unknown top-level key, or lines that are not a list. */
  | { readonly code: 'invalid_document'; readonly message: string; readonly key?: string }
  /** A line that is not a table at all. */
  | (LinePlace & { readonly code: 'invalid_line'; readonly message: string })
  /** One field of a line is missing or wrong. */
  | (LinePlace & {
      readonly code: 'invalid_field';
      readonly field: CharterLineField;
      readonly message: string;
    })
  /** A line carries a field that is not one of id, text, sensor, setpoint (a typo, usually). */
  | (LinePlace & {
      readonly code: 'unknown_field';
      readonly field: string;
      readonly message: string;
    })
  /** A second line with an id already used above it. */
  | (LinePlace & {
      readonly code: 'duplicate_id';
      readonly field: 'id';
      readonly firstRank: number;
      readonly message: string;
    })
  /** A second line carrying a sensor already carried above it. */
  | (LinePlace & {
      readonly code: 'duplicate_sensor';
      readonly field: 'sensor';
      readonly sensor: CharterSensor;
      readonly firstRank: number;
      readonly message: string;
    });

/** The rank and (valid) id of the line at `index` of a raw, possibly invalid, list. */
export function placeOf(lines: readonly unknown[] | undefined, index: number): LinePlace {
  const line = lines?.[index];
  const id = typeof line === 'object' && line !== null ? (line as { id?: unknown }).id : undefined;
  return typeof id === 'string' && lineIdProblem(id) === undefined
    ? { rank: index + 1, id }
    : { rank: index + 1 };
}

/** `charter line 2 "replies"`, or `charter line 2` for a line with no valid id. */
export function lineName(place: LinePlace): string {
  return place.id === undefined
    ? `charter line ${place.rank}`
    : `charter line ${place.rank} ${JSON.stringify(place.id)}`;
}

function isLineField(field: PropertyKey | undefined): field is CharterLineField {
  return (charterLineFields as readonly PropertyKey[]).includes(field as PropertyKey);
}

/**
 * Turns zod's issues for a list of lines into charter issues. `linesPath` is where the list sits
 * in the validated value (`['line']` in a TOML document, `[]` for a charter in memory) and
 * `describeList` names the list for a message about the list as a whole.
 */
export function issuesFromZod(
  issues: readonly z.core.$ZodIssue[],
  lines: readonly unknown[] | undefined,
  linesPath: readonly PropertyKey[],
  describeList: string,
): CharterIssue[] {
  const out: CharterIssue[] = [];
  for (const issue of issues) {
    const path = issue.path;
    const insideLines =
      path.length >= linesPath.length && linesPath.every((key, i) => path[i] === key);
    if (!insideLines || path.length === linesPath.length) {
      if (issue.code === 'unrecognized_keys' && path.length < linesPath.length + 1) {
        for (const key of issue.keys) {
          out.push({
            code: 'invalid_document',
            key,
            message: `the charter file has an unknown key ${JSON.stringify(key)}; charter lines are written as [[line]] tables`,
          });
        }
      } else {
        out.push({
          code: 'invalid_document',
          ...(linesPath.length > 0 ? { key: String(linesPath[linesPath.length - 1]) } : {}),
          message: `${describeList} ${issue.message}`,
        });
      }
      continue;
    }
    const index = path[linesPath.length];
    if (typeof index !== 'number') {
      out.push({ code: 'invalid_document', message: `${describeList} ${issue.message}` });
      continue;
    }
    const place = placeOf(lines, index);
    const field = path[linesPath.length + 1];
    if (field === undefined || !isLineField(field)) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          out.push({
            ...place,
            code: 'unknown_field',
            field: key,
            message: `${lineName(place)}, ${JSON.stringify(key)}: unknown field; a charter line has id, text, sensor and setpoint`,
          });
        }
      } else {
        out.push({
          ...place,
          code: 'invalid_line',
          message: `${lineName(place)}: ${issue.message}`,
        });
      }
      continue;
    }
    out.push({
      ...place,
      code: 'invalid_field',
      field,
      message: `${lineName(place)}, ${field}: ${issue.message}`,
    });
  }
  return out;
}

/** Turns breaches of the rules across lines into charter issues naming the later line. */
export function issuesFromBreaches(
  breaches: readonly InvariantBreach[],
  lines: readonly unknown[],
): CharterIssue[] {
  return breaches.map((breach): CharterIssue => {
    const place = placeOf(lines, breach.index);
    const message = `${lineName(place)}, ${breach.field}: ${breachMessage(breach, lines)}`;
    const firstRank = breach.firstIndex + 1;
    if (breach.code === 'duplicate_id') {
      // A duplicate is only ever found between valid ids, so the line has one to be named by.
      return { ...place, code: 'duplicate_id', field: 'id', firstRank, message };
    }
    const sensor = (lines[breach.index] as { sensor: CharterSensor }).sensor;
    return { ...place, code: 'duplicate_sensor', field: 'sensor', sensor, firstRank, message };
  });
}

const fieldOrder = (issue: CharterIssue): number => {
  if (!('field' in issue)) return -1;
  const position = (charterLineFields as readonly string[]).indexOf(issue.field);
  return position === -1 ? charterLineFields.length : position;
};

/** Document issues first, then by rank, then by field in the order a line is written. */
export function sortIssues(issues: readonly CharterIssue[]): CharterIssue[] {
  return [...issues].sort((a, b) => {
    const rankA = 'rank' in a ? a.rank : 0;
    const rankB = 'rank' in b ? b.rank : 0;
    return rankA - rankB || fieldOrder(a) - fieldOrder(b);
  });
}
