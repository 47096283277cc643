import * as z from 'zod';
import { charterSensors } from './charter-sensor.js';
import { formatDuration, parseDuration } from './duration.js';

/** The longest a line id may be, in characters (code points). */
export const maxLineIdLength = 64;

// Lowercase letters of any script (or letters that have no case, such as CJK), decimal digits,
// combining marks, `_`, `-` and `.`; the first character a letter or a digit. No spaces, quotes,
// control or format characters: an id is a pointer that is printed, cited and typed back.
const lineIdPattern = /^[\p{Ll}\p{Lo}\p{Nd}][\p{Ll}\p{Lo}\p{Lm}\p{M}\p{Nd}_.-]*$/u;
const loneSurrogate = /[\uD800-\uDFFF]/u;
// Something to read: a character that is not whitespace, a control or an invisible format one.
const visible = /[^\s\p{Cc}\p{Cf}]/u;

/**
 * Why `id` cannot name a charter line, or `undefined` when it can. An id is 1–64 characters:
 * lowercase letters (of any script; letters without case, such as CJK, count), decimal digits,
 * combining marks, `_`, `-` and `.`, starting with a letter or digit, in Unicode NFC. So
 * `replies`, `q2.latency`, `réponses` and `回复` are ids; `Replies`, `my line` and `"x"` are not.
 */
export function lineIdProblem(id: string): string | undefined {
  if (id === '') return 'is empty';
  if ([...id].length > maxLineIdLength) return `is longer than ${maxLineIdLength} characters`;
  if (!lineIdPattern.test(id)) {
    return 'may hold only lowercase letters, digits, "_", "-" and ".", and must start with a letter or digit';
  }
  if (id.normalize('NFC') !== id) return 'must be in Unicode normal form C (NFC)';
  return undefined;
}

/** Why `text` cannot be a charter line's text, or `undefined` when it can. */
export function lineTextProblem(text: string): string | undefined {
  if (text === '') return 'is empty';
  if (!visible.test(text)) return 'holds only whitespace or invisible characters';
  // A lone UTF-16 surrogate has no UTF-8 encoding, so it could not be written to the file.
  if (loneSurrogate.test(text)) return 'holds a lone UTF-16 surrogate, which is not text';
  return undefined;
}

/** Describes a wrong value for an error message without echoing it whole. */
function received(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (input instanceof Date) return 'a date';
  if (typeof input === 'object') return 'a table';
  if (typeof input === 'string') return 'a string';
  if (typeof input === 'number' && Number.isNaN(input)) return 'NaN';
  if (typeof input === 'number' && !Number.isFinite(input)) return 'an infinite number';
  if (typeof input === 'number' || typeof input === 'bigint') return 'a number';
  if (typeof input === 'boolean') return 'a boolean';
  return `a ${typeof input}`;
}

/** The message for a value of the wrong type: "is missing" when there is none at all. */
function wrongType(expected: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? 'is missing' : `must be ${expected}, not ${received(issue.input)}`;
}

const lineIdSchema = z.string({ error: wrongType('a string') }).superRefine((id, ctx) => {
  const problem = lineIdProblem(id);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, input: id });
});

const lineTextSchema = z.string({ error: wrongType('a string') }).superRefine((text, ctx) => {
  const problem = lineTextProblem(text);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, input: text });
});

const sensorSchema = z.enum(charterSensors, {
  error: (issue) =>
    typeof issue.input === 'string'
      ? `${JSON.stringify(issue.input)} is not a sensor: use one of ${charterSensors.join(', ')}`
      : wrongType(`one of ${charterSensors.join(', ')}`)(issue),
});

/** A setpoint in memory: a positive whole number of milliseconds. */
const setpointSchema = z
  .number({ error: wrongType('a whole number of milliseconds') })
  .int({ error: 'must be a whole number of milliseconds' })
  .positive({ error: 'must be a positive duration' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'is too long a duration' });

/**
 * A setpoint in `charter.toml`: a duration string (`"48h"`) decoded to milliseconds and encoded
 * back in canonical form, so a file and its charter round-trip exactly.
 */
const setpointTomlSchema = z.codec(
  z.string({
    error: (issue) =>
      issue.input === undefined
        ? 'is missing'
        : `must be a duration string such as "48h", not ${received(issue.input)}`,
  }),
  setpointSchema,
  {
    decode: (text, ctx) => {
      const parsed = parseDuration(text);
      if (parsed._tag === 'Right') return parsed.right;
      ctx.issues.push({ code: 'custom', message: parsed.left, input: text });
      return z.NEVER;
    },
    encode: (milliseconds) => formatDuration(milliseconds),
  },
);

/** The field names a charter line has, in the order they are written. */
export const charterLineFields = ['id', 'text', 'sensor', 'setpoint'] as const;

/** One of the four fields of a charter line. */
export type CharterLineField = (typeof charterLineFields)[number];

const lineShape = {
  id: lineIdSchema,
  text: lineTextSchema,
  sensor: sensorSchema.optional(),
};

const lineError = wrongType('a table with id and text');

/**
 * One line of the owner's charter, as held in memory: an id (a pointer, see `lineIdProblem`),
 * the owner's own text, and optionally the sensor it watches and a setpoint in milliseconds.
 * Parsed lines are frozen. Unknown fields are refused, so a typo cannot pass silently.
 */
export const charterLineSchema = z
  .strictObject({ ...lineShape, setpoint: setpointSchema.optional() }, { error: lineError })
  .readonly();

/** One charter line: `{ id, text, sensor?, setpoint? }`, setpoint in milliseconds. */
export type CharterLine = z.infer<typeof charterLineSchema>;

/** The same line as written in `charter.toml`, with the setpoint as a duration string. */
export const charterLineTomlSchema = z
  .strictObject({ ...lineShape, setpoint: setpointTomlSchema.optional() }, { error: lineError })
  .readonly();

/** The lines of a charter, each valid on its own, before the rules across lines are checked. */
export const charterLinesSchema = z
  .array(charterLineSchema, { error: wrongType('a list of charter lines') })
  .readonly();

/** A rule across lines that a list of individually valid lines can still break. */
export interface InvariantBreach {
  readonly code: 'duplicate_id' | 'duplicate_sensor';
  /** Zero-based position of the later line, the one that breaks the rule. */
  readonly index: number;
  readonly field: 'id' | 'sensor';
  /** Zero-based position of the earlier line it collides with. */
  readonly firstIndex: number;
}

/**
 * The rules across lines: ids are unique and at most one line carries each sensor. Reads any
 * list, skipping a line whose id or sensor is not itself valid, so it can run beside the
 * per-line checks and report everything at once.
 */
export function invariantBreaches(lines: readonly unknown[]): InvariantBreach[] {
  const breaches: InvariantBreach[] = [];
  const ids = new Map<string, number>();
  const sensors = new Map<string, number>();
  lines.forEach((line, index) => {
    if (typeof line !== 'object' || line === null) return;
    const { id, sensor } = line as { id?: unknown; sensor?: unknown };
    if (typeof id === 'string' && lineIdProblem(id) === undefined) {
      const first = ids.get(id);
      if (first === undefined) ids.set(id, index);
      else breaches.push({ code: 'duplicate_id', index, field: 'id', firstIndex: first });
    }
    if (typeof sensor === 'string' && (charterSensors as readonly string[]).includes(sensor)) {
      const first = sensors.get(sensor);
      if (first === undefined) sensors.set(sensor, index);
      else breaches.push({ code: 'duplicate_sensor', index, field: 'sensor', firstIndex: first });
    }
  });
  return breaches;
}

/** The message for a breach, without the "charter line N" prefix the issue adds. */
export function breachMessage(breach: InvariantBreach, lines: readonly unknown[]): string {
  const first = lines[breach.firstIndex] as { id?: unknown; sensor?: unknown };
  const firstName =
    typeof first.id === 'string' && lineIdProblem(first.id) === undefined
      ? ` ${JSON.stringify(first.id)}`
      : '';
  if (breach.code === 'duplicate_id') {
    return `repeats the id of charter line ${breach.firstIndex + 1}; ids must be unique`;
  }
  return `${JSON.stringify(first.sensor)} is already watched by charter line ${breach.firstIndex + 1}${firstName}; at most one line carries each sensor`;
}

/**
 * A whole charter in memory: an ordered list of lines, highest rank first. Rank is position;
 * there are no weights. Ids are unique and at most one line carries each sensor. Parsed
 * charters are frozen, lines included.
 */
export const charterSchema = charterLinesSchema.superRefine((lines, ctx) => {
  for (const breach of invariantBreaches(lines)) {
    ctx.addIssue({
      code: 'custom',
      path: [breach.index, breach.field],
      message: breachMessage(breach, lines),
      params: { breach },
      input: lines[breach.index],
    });
  }
});

/** The owner's charter: lines in rank order, highest first. */
export type Charter = z.infer<typeof charterSchema>;
