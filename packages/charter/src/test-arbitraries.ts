// fast-check arbitraries the tests share. Not part of any entry, so never built or published.
import fc from 'fast-check';
import type { Charter, CharterLine } from './charter.js';
import { lineIdProblem, lineTextProblem } from './charter.js';
import { charterSensors } from './charter-sensor.js';

const idStart = [
  ...'abcdefghijklmnopqrstuvwxyz0123456789',
  'é',
  'ß',
  'ø',
  'ж',
  'λ',
  '回',
  '复',
  'ア',
];
const idRest = [...idStart, '_', '-', '.', '\u0301'];

/** Valid line ids, including unicode ones and the TOML-special `.`, `-` and `_`. */
export const lineIdArb: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...idStart), fc.array(fc.constantFrom(...idRest), { maxLength: 20 }))
  .map(([first, rest]) => first + rest.join(''))
  .filter((id) => lineIdProblem(id) === undefined);

/** Pieces that tend to break a TOML writer: quotes, escapes, newlines, brackets, controls. */
const trickyPieces = [
  '"',
  "'",
  '\\',
  '\n',
  '\r\n',
  '\r',
  '\t',
  '"""',
  "'''",
  '[[line]]',
  '[line]',
  '# not a comment',
  'id = "x"',
  '=',
  '\u0000',
  '\u0008',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\uFEFF',
  '\u202E',
  '😀',
  '👩‍👩‍👧',
  'ｷ',
  '\\u0041',
  '{{x}}',
];

/** Valid line texts: arbitrary unicode mixed with characters that are special in TOML. */
export const lineTextArb: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
      fc.constantFrom(...trickyPieces),
      fc.string({ minLength: 1, maxLength: 12 }),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((pieces) => pieces.join(''))
  .filter((text) => lineTextProblem(text) === undefined);

const hour = 3_600_000;

/** Valid setpoints in milliseconds: round durations and arbitrary positive safe integers. */
export const setpointArb: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: 1, max: 24 * 365 }).map((hours) => hours * hour),
  fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  fc.constantFrom(1, 999, 1000, 60_000, 90 * 60_000, 48 * hour, 7 * 24 * hour),
);

const lineArb: fc.Arbitrary<CharterLine> = fc
  .record(
    {
      id: lineIdArb,
      text: lineTextArb,
      sensor: fc.constantFrom(...charterSensors),
      setpoint: setpointArb,
    },
    { requiredKeys: ['id', 'text'], noNullPrototype: true },
  )
  .map((line) => line as CharterLine);

/** Drops later lines with a repeated id and later sensors already carried above. */
function legal(lines: readonly CharterLine[]): CharterLine[] {
  const ids = new Set<string>();
  const sensors = new Set<string>();
  const out: CharterLine[] = [];
  for (const line of lines) {
    if (ids.has(line.id)) continue;
    ids.add(line.id);
    if (line.sensor !== undefined && sensors.has(line.sensor)) {
      const { sensor: _sensor, ...rest } = line;
      out.push(rest);
    } else {
      if (line.sensor !== undefined) sensors.add(line.sensor);
      out.push(line);
    }
  }
  return out;
}

/** Valid charters of up to 10 lines. */
export const charterArb: fc.Arbitrary<Charter> = fc
  .array(lineArb, { maxLength: 10 })
  .map((lines) => legal(lines));

/** Freezes a value and everything in it, so a mutation throws in strict mode. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
