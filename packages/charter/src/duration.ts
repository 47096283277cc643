import * as E from 'fp-ts/lib/Either.js';
import { CharterArgumentError } from './charter-argument-error.js';

/** One millisecond, and the units a setpoint is written in, each in milliseconds. */
export const durationUnits = {
  w: 7 * 24 * 60 * 60 * 1000,
  d: 24 * 60 * 60 * 1000,
  h: 60 * 60 * 1000,
  m: 60 * 1000,
  s: 1000,
  ms: 1,
} satisfies Record<string, number>;

const unitOrder = ['w', 'd', 'h', 'm', 's', 'ms'] as const;

// Each unit at most once, largest first, no spaces: `2d`, `48h`, `1h30m`, `1w2d`, `500ms`.
const durationPattern = /^(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;

const durationHint =
  'write whole numbers with units w, d, h, m, s or ms, largest first, such as "48h", "90m", "2d" or "1d12h"';

/**
 * Reads a duration as written in `charter.toml` (`"48h"`, `"90m"`, `"2d"`, `"1d12h"`,
 * `"500ms"`) into milliseconds. Units are `w` (7 days), `d`, `h`, `m`, `s` and `ms`, each at
 * most once and largest first, with no spaces. The result must be a positive safe integer;
 * anything else is a `Left` with a sentence saying what is wrong, never a throw.
 */
export function parseDuration(text: string): E.Either<string, number> {
  if (typeof text !== 'string') return E.left('is not a duration string');
  const shown = JSON.stringify(text);
  const match = text === '' ? null : durationPattern.exec(text);
  if (match === null) return E.left(`${shown} is not a duration: ${durationHint}`);
  let total = 0;
  unitOrder.forEach((unit, index) => {
    const amount = match[index + 1];
    if (amount !== undefined) total += Number(amount) * durationUnits[unit];
  });
  if (!Number.isSafeInteger(total)) return E.left(`${shown} is too long a duration`);
  if (total <= 0) return E.left(`${shown} is not a positive duration`);
  return E.right(total);
}

/**
 * Writes milliseconds in the canonical form `parseDuration` reads back exactly: largest units
 * first, zero components left out (`172800000` → `"2d"`, `5400000` → `"1h30m"`, `0` → `"0ms"`).
 * Throws `CharterArgumentError` for a negative, fractional or unsafe number, which no valid
 * charter holds.
 */
export function formatDuration(milliseconds: number): string {
  if (!Number.isSafeInteger(milliseconds) || milliseconds < 0) {
    throw new CharterArgumentError(
      'milliseconds',
      `formatDuration takes a non-negative whole number of milliseconds, not ${String(milliseconds)}`,
    );
  }
  if (milliseconds === 0) return '0ms';
  let rest = milliseconds;
  let written = '';
  for (const unit of unitOrder) {
    const size = durationUnits[unit];
    const amount = Math.floor(rest / size);
    if (amount > 0) {
      written += `${amount}${unit}`;
      rest -= amount * size;
    }
  }
  return written;
}
