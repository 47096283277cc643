import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import { type MechaHome, openHome, resolveHome } from '@mecha/stores';
import type { CommandContext } from './cli-io.js';
import { MissingHomeError } from './missing-home.js';
import { type Clock, ownerClock } from './render/format.js';

/** The home a command reads and writes: `--home`, else `MECHA_HOME`, else `~/.mecha`. */
export function homePath(context: CommandContext): string {
  const env = context.home === undefined ? context.env : { MECHA_HOME: context.home };
  const path = resolveHome({ env, homeDirectory: homedir(), cwd: context.cwd }).path;
  // Absent is not zero: a command that reads a home never reads a missing one as empty.
  if (context.homeMustExist === true && !existsSync(path)) throw new MissingHomeError(path);
  return path;
}

/** Opens the home a command works on (nothing is read or created until a store is used). */
export function openCommandHome(context: CommandContext): MechaHome {
  return openHome(homePath(context));
}

/**
 * The moment a readout is taken: now, or `MECHA_NOW` (an ISO timestamp) so that a readout over
 * a fixed home can be reproduced. It never stamps a record: writes always use the clock.
 */
export function readoutNow(context: CommandContext): Either<Refusal<'bad_request'>, Date> {
  const fixed = context.env.MECHA_NOW;
  if (fixed === undefined || fixed === '') return right(new Date());
  const time = Date.parse(fixed);
  if (Number.isNaN(time)) {
    return left(refusal('bad_request', `MECHA_NOW is not a timestamp: ${JSON.stringify(fixed)}`));
  }
  return right(new Date(time));
}

/**
 * How this home's times read to its owner: in `[agent] timezone`. A config that cannot be read
 * is reported by the commands that need it; a readout then shows UTC and says so in the zone.
 */
export function ownerClockFor(context: CommandContext): Clock {
  const config = openCommandHome(context).readConfig();
  return ownerClock(config._tag === 'Right' ? config.right.agent.timezone : 'UTC');
}
