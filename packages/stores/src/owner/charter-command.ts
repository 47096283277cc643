import { type CharterLine, isCharterSensor, parseDuration } from '@mecha/charter';
import * as E from 'fp-ts/lib/Either.js';
import type { CharterChange } from './edit-charter.js';
import { type OwnerActRefusal, ownerRefused } from './owner-refusal.js';

/** The charter edits a person can type (`mecha charter add …`, `/mecha charter add …`). */
export type CharterCommandOp = 'add' | 'move' | 'rm' | 'set' | 'unset';

/** Each edit's options, in `node:util` `parseArgs` shape, so every surface accepts the same. */
export const charterCommandOptions = {
  add: { sensor: { type: 'string' }, setpoint: { type: 'string' }, rank: { type: 'string' } },
  move: {},
  rm: {},
  set: { text: { type: 'string' }, sensor: { type: 'string' }, setpoint: { type: 'string' } },
  unset: { sensor: { type: 'boolean' }, setpoint: { type: 'boolean' } },
} as const satisfies Record<
  CharterCommandOp,
  Record<string, { readonly type: 'string' | 'boolean' }>
>;

/** A typed charter edit, as its words and options after parsing. */
export interface CharterCommandRequest {
  readonly op: CharterCommandOp;
  readonly positionals: readonly string[];
  readonly options: Readonly<
    Record<string, string | boolean | readonly (string | boolean)[] | undefined>
  >;
}

/** The changes a typed edit asks for, and the line to say once they are written. */
export interface CharterCommand {
  readonly state: 'parsed';
  readonly changes: readonly CharterChange[];
  /** `Added line replies.` and the like. */
  readonly done: string;
}

const sensorList = 'outbox_age, question_latency or request_closure';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** A malformed typed edit: what every surface shows as a usage error. */
type BadEdit = OwnerActRefusal<'bad_request'>;

const bad = (message: string) => ownerRefused('bad_request', message);

function sensorOf(value: string): E.Either<BadEdit, NonNullable<CharterLine['sensor']>> {
  return isCharterSensor(value)
    ? E.right(value)
    : bad(`--sensor takes ${sensorList}, not ${JSON.stringify(value)}`);
}

function setpointOf(value: string): E.Either<BadEdit, number> {
  const parsed = parseDuration(value);
  return E.isLeft(parsed) ? bad(`--setpoint: ${parsed.left}`) : E.right(parsed.right);
}

function rankOf(value: string, name: string): E.Either<BadEdit, number> {
  const rank = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(rank) || rank < 1 || rank > 999_999_999) {
    return bad(`${name} takes a whole number from 1 to 999,999,999, not ${JSON.stringify(value)}`);
  }
  return E.right(rank);
}

/**
 * Reads one typed charter edit into the changes {@link editCharter} applies, with the messages
 * every surface shows for a malformed one (a `bad_request` refusal). Checks only the words:
 * what the charter itself refuses (an unknown id, a sensor on two lines) comes from the edit.
 */
export function charterCommand(
  request: CharterCommandRequest,
): E.Either<OwnerActRefusal<'bad_request'>, CharterCommand> {
  const { positionals, options } = request;
  switch (request.op) {
    case 'add': {
      const [id, ...words] = positionals;
      if (id === undefined || words.length === 0) return bad('give the line an id and its text');
      const line: { id: string; text: string; sensor?: CharterLine['sensor']; setpoint?: number } =
        { id, text: words.join(' ') };
      const sensorText = text(options.sensor);
      if (sensorText !== undefined) {
        const sensor = sensorOf(sensorText);
        if (E.isLeft(sensor)) return sensor;
        line.sensor = sensor.right;
      }
      const setpointText = text(options.setpoint);
      if (setpointText !== undefined) {
        const setpoint = setpointOf(setpointText);
        if (E.isLeft(setpoint)) return setpoint;
        line.setpoint = setpoint.right;
      }
      const rankText = text(options.rank);
      const rank = rankText === undefined ? undefined : rankOf(rankText, '--rank');
      if (rank !== undefined && E.isLeft(rank)) return rank;
      return E.right({
        state: 'parsed',
        changes: [
          {
            op: 'add',
            line: line as CharterLine,
            ...(rank === undefined ? {} : { rank: rank.right }),
          },
        ],
        done: `Added line ${id}.`,
      });
    }
    case 'move': {
      const [id, rankText, extra] = positionals;
      if (id === undefined || rankText === undefined || extra !== undefined) {
        return bad('give the line id and the rank to move it to');
      }
      const rank = rankOf(rankText, 'RANK');
      if (E.isLeft(rank)) return rank;
      return E.right({
        state: 'parsed',
        changes: [{ op: 'move', id, rank: rank.right }],
        done: `Moved line ${id} to rank ${rank.right}.`,
      });
    }
    case 'rm': {
      const [id, extra] = positionals;
      if (id === undefined || extra !== undefined) return bad('give the id of the line to remove');
      return E.right({
        state: 'parsed',
        changes: [{ op: 'remove', id }],
        done: `Removed line ${id}.`,
      });
    }
    case 'set': {
      const [id, extra] = positionals;
      if (id === undefined || extra !== undefined) return bad('give the id of the line to change');
      const changes: CharterChange[] = [];
      const newText = text(options.text);
      if (newText !== undefined) changes.push({ op: 'set_text', id, text: newText });
      const sensorText = text(options.sensor);
      if (sensorText !== undefined) {
        const sensor = sensorOf(sensorText);
        if (E.isLeft(sensor)) return sensor;
        changes.push({ op: 'set_sensor', id, sensor: sensor.right });
      }
      const setpointText = text(options.setpoint);
      if (setpointText !== undefined) {
        const setpoint = setpointOf(setpointText);
        if (E.isLeft(setpoint)) return setpoint;
        changes.push({ op: 'set_setpoint', id, setpoint: setpoint.right });
      }
      if (changes.length === 0) return bad('say what to change: --text, --sensor or --setpoint');
      return E.right({ state: 'parsed', changes, done: `Changed line ${id}.` });
    }
    case 'unset': {
      const [id, extra] = positionals;
      if (id === undefined || extra !== undefined) return bad('give the id of the line to change');
      const changes: CharterChange[] = [];
      if (options.sensor === true) changes.push({ op: 'clear_sensor', id });
      if (options.setpoint === true) changes.push({ op: 'clear_setpoint', id });
      if (changes.length === 0) return bad('say what to take off: --sensor or --setpoint');
      return E.right({ state: 'parsed', changes, done: `Changed line ${id}.` });
    }
  }
}
