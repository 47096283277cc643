import { type CharterLine, isCharterSensor, parseDuration } from '@mecha/charter';
import * as E from 'fp-ts/lib/Either.js';
import type { CharterChange } from './edit-charter.js';
import { type OwnerRefusal, ownerRefusal } from './owner-refusal.js';

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

function sensorOf(value: string): CharterLine['sensor'] | OwnerRefusal {
  return isCharterSensor(value)
    ? value
    : ownerRefusal('bad_request', `--sensor takes ${sensorList}, not ${JSON.stringify(value)}`);
}

function setpointOf(value: string): number | OwnerRefusal {
  const parsed = parseDuration(value);
  return E.isLeft(parsed)
    ? ownerRefusal('bad_request', `--setpoint: ${parsed.left}`)
    : parsed.right;
}

function rankOf(value: string, name: string): number | OwnerRefusal {
  const rank = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(rank) || rank < 1 || rank > 999_999_999) {
    return ownerRefusal(
      'bad_request',
      `${name} takes a whole number from 1 to 999,999,999, not ${JSON.stringify(value)}`,
    );
  }
  return rank;
}

const refused = (value: unknown): value is OwnerRefusal =>
  typeof value === 'object' && value !== null && (value as OwnerRefusal).state === 'refused';

/**
 * Reads one typed charter edit into the changes {@link editCharter} applies, with the messages
 * every surface shows for a malformed one (a `bad_request` refusal). Checks only the words:
 * what the charter itself refuses (an unknown id, a sensor on two lines) comes from the edit.
 */
export function charterCommand(request: CharterCommandRequest): CharterCommand | OwnerRefusal {
  const { positionals, options } = request;
  const bad = (message: string) => ownerRefusal('bad_request', message);
  switch (request.op) {
    case 'add': {
      const [id, ...words] = positionals;
      if (id === undefined || words.length === 0) return bad('give the line an id and its text');
      const line: { id: string; text: string; sensor?: CharterLine['sensor']; setpoint?: number } =
        { id, text: words.join(' ') };
      const sensorText = text(options.sensor);
      if (sensorText !== undefined) {
        const sensor = sensorOf(sensorText);
        if (refused(sensor)) return sensor;
        line.sensor = sensor;
      }
      const setpointText = text(options.setpoint);
      if (setpointText !== undefined) {
        const setpoint = setpointOf(setpointText);
        if (refused(setpoint)) return setpoint;
        line.setpoint = setpoint;
      }
      const rankText = text(options.rank);
      const rank = rankText === undefined ? undefined : rankOf(rankText, '--rank');
      if (refused(rank)) return rank;
      return {
        state: 'parsed',
        changes: [
          { op: 'add', line: line as CharterLine, ...(rank === undefined ? {} : { rank }) },
        ],
        done: `Added line ${id}.`,
      };
    }
    case 'move': {
      const [id, rankText, extra] = positionals;
      if (id === undefined || rankText === undefined || extra !== undefined) {
        return bad('give the line id and the rank to move it to');
      }
      const rank = rankOf(rankText, 'RANK');
      if (refused(rank)) return rank;
      return {
        state: 'parsed',
        changes: [{ op: 'move', id, rank }],
        done: `Moved line ${id} to rank ${rank}.`,
      };
    }
    case 'rm': {
      const [id, extra] = positionals;
      if (id === undefined || extra !== undefined) return bad('give the id of the line to remove');
      return { state: 'parsed', changes: [{ op: 'remove', id }], done: `Removed line ${id}.` };
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
        if (refused(sensor)) return sensor;
        changes.push({
          op: 'set_sensor',
          id,
          sensor: sensor as NonNullable<CharterLine['sensor']>,
        });
      }
      const setpointText = text(options.setpoint);
      if (setpointText !== undefined) {
        const setpoint = setpointOf(setpointText);
        if (refused(setpoint)) return setpoint;
        changes.push({ op: 'set_setpoint', id, setpoint });
      }
      if (changes.length === 0) return bad('say what to change: --text, --sensor or --setpoint');
      return { state: 'parsed', changes, done: `Changed line ${id}.` };
    }
    case 'unset': {
      const [id, extra] = positionals;
      if (id === undefined || extra !== undefined) return bad('give the id of the line to change');
      const changes: CharterChange[] = [];
      if (options.sensor === true) changes.push({ op: 'clear_sensor', id });
      if (options.setpoint === true) changes.push({ op: 'clear_setpoint', id });
      if (changes.length === 0) return bad('say what to take off: --sensor or --setpoint');
      return { state: 'parsed', changes, done: `Changed line ${id}.` };
    }
  }
}
