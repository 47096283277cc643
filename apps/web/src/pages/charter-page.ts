import {
  type Charter,
  type CharterLine,
  charterSensors,
  commitmentStores,
  formatDuration,
  isCharterSensor,
  parseDuration,
  patienceOf,
} from '@mecha/charter';
import { type Either, isLeft, type Refusal, right } from '@mecha/errors';
import type { CharterChange } from '@mecha/stores';
import { html } from 'hono/html';
import { csrfField, type Html } from '../views/layout.js';
import { badRequest } from './bad-request.js';

const sensorList = 'outbox_age, question_latency or request_closure';

/** The one change a charter form asks for, and the line the board shows once it is made. */
export interface CharterFormChange {
  readonly change: CharterChange;
  readonly done: string;
}

/**
 * Reads a charter form into the one change it asks for, saying a mistake in the form's own
 * words (its fields, not the CLI's flags); the charter's own rules (ids, ranks, duplicates) are checked by the edit itself.
 */
export function charterChangeOf(
  form: Readonly<Record<string, string | undefined>>,
): Either<Refusal<'bad_request'>, CharterFormChange> {
  const id = (form.id ?? '').trim();
  const sensorOf = (text: string): CharterLine['sensor'] | string =>
    isCharterSensor(text)
      ? text
      : `the sensor is one of ${sensorList}, not ${JSON.stringify(text)}`;
  const setpointOf = (text: string): number | string => {
    const parsed = parseDuration(text);
    return isLeft(parsed)
      ? `the setpoint is a duration such as 48h or 2d: ${parsed.left}`
      : parsed.right;
  };
  const rankOf = (text: string | undefined, name: string): number | undefined | string => {
    if (text === undefined || text.trim() === '') return undefined;
    return /^\d{1,4}$/.test(text.trim()) && Number(text) >= 1
      ? Number(text)
      : `the ${name} is a whole number from 1, not ${JSON.stringify(text)}`;
  };
  switch (form.op) {
    case 'add': {
      const text = (form.text ?? '').trim();
      if (id === '' || text === '') return badRequest('give the line an id and its text');
      const line: { id: string; text: string; sensor?: CharterLine['sensor']; setpoint?: number } =
        { id, text };
      if ((form.sensor ?? '') !== '') {
        const sensor = sensorOf(form.sensor as string);
        if (!isCharterSensor(String(sensor))) return badRequest(String(sensor));
        line.sensor = sensor as CharterLine['sensor'];
      }
      if ((form.setpoint ?? '').trim() !== '') {
        const setpoint = setpointOf((form.setpoint as string).trim());
        if (typeof setpoint === 'string') return badRequest(setpoint);
        line.setpoint = setpoint;
      }
      const rank = rankOf(form.rank, 'rank');
      if (typeof rank === 'string') return badRequest(rank);
      return right({
        change: { op: 'add', line: line as CharterLine, ...(rank === undefined ? {} : { rank }) },
        done: `Added line ${id}.`,
      });
    }
    case 'move': {
      const rank = rankOf(form.rank, 'rank');
      if (rank === undefined) return badRequest('type the rank to move the line to');
      if (typeof rank === 'string') return badRequest(rank);
      return right({
        change: { op: 'move', id, rank },
        done: `Moved line ${id} to rank ${rank}.`,
      });
    }
    case 'remove':
      if (id === '') return badRequest('give the id of the line to remove');
      return right({ change: { op: 'remove', id }, done: `Removed line ${id}.` });
    case 'set_text': {
      const text = (form.text ?? '').trim();
      if (text === '') return badRequest('type the line’s new text');
      return right({ change: { op: 'set_text', id, text }, done: `Changed line ${id}.` });
    }
    case 'set_sensor': {
      const sensor = sensorOf(form.sensor ?? '');
      if (!isCharterSensor(String(sensor))) return badRequest(String(sensor));
      return right({
        change: { op: 'set_sensor', id, sensor: sensor as NonNullable<CharterLine['sensor']> },
        done: `Changed line ${id}.`,
      });
    }
    case 'set_setpoint': {
      const setpoint = setpointOf((form.setpoint ?? '').trim());
      if (typeof setpoint === 'string') return badRequest(setpoint);
      return right({
        change: { op: 'set_setpoint', id, setpoint },
        done: `Changed line ${id}.`,
      });
    }
    case 'clear_sensor':
      return right({
        change: { op: 'clear_sensor', id },
        done: `Took the sensor off line ${id}.`,
      });
    case 'clear_setpoint':
      return right({
        change: { op: 'clear_setpoint', id },
        done: `Took the setpoint off line ${id}.`,
      });
    default:
      return badRequest('unknown charter edit');
  }
}

/** What the owner typed into a charter form that was refused: shown again in its fields. */
export type CharterTyped = Readonly<Record<string, string | undefined>>;

function lineHtml(line: CharterLine, rank: number, csrf: string, typed?: CharterTyped): Html {
  // The line's own form that was refused opens again with what was typed in it.
  const mine =
    typed !== undefined && typed.op !== 'add' && typed.id === line.id ? typed : undefined;
  const typedIn = (op: string, field: string, shown: string) =>
    mine?.op === op ? (mine[field] ?? '') : shown;
  return html`<li id="line-${line.id}" data-line="${line.id}">
<div class="run__meta"><strong>${rank}</strong> · ${line.id}${line.sensor === undefined ? '' : html`<br>sensor ${line.sensor}`}${line.setpoint === undefined ? '' : html` · setpoint ${formatDuration(line.setpoint)}`}</div>
<div class="run__answer">${line.text}</div>
<details${mine === undefined ? '' : html` open`}><summary>Edit ${line.id}</summary><div class="acts">
<form method="post" action="/charter">${csrfField(csrf)}<input type="hidden" name="op" value="move"><input type="hidden" name="id" value="${line.id}"><label>Rank<input name="rank" size="3" inputmode="numeric" value="${typedIn('move', 'rank', String(rank))}"></label><button type="submit">Move</button></form>
<form method="post" action="/charter">${csrfField(csrf)}<input type="hidden" name="op" value="set_text"><input type="hidden" name="id" value="${line.id}"><label>Text<input name="text" size="30" value="${typedIn('set_text', 'text', line.text)}"></label><button type="submit">Change text</button></form>
<form method="post" action="/charter">${csrfField(csrf)}<input type="hidden" name="op" value="set_sensor"><input type="hidden" name="id" value="${line.id}"><label>Sensor<input name="sensor" size="16" value="${typedIn('set_sensor', 'sensor', line.sensor ?? '')}" list="sensors"></label><button type="submit">Set sensor</button></form>
<form method="post" action="/charter">${csrfField(csrf)}<input type="hidden" name="op" value="set_setpoint"><input type="hidden" name="id" value="${line.id}"><label>Setpoint<input name="setpoint" size="8" value="${typedIn('set_setpoint', 'setpoint', line.setpoint === undefined ? '' : formatDuration(line.setpoint))}"></label><button type="submit">Set setpoint</button></form>
<form method="post" action="/charter">${csrfField(csrf)}<input type="hidden" name="op" value="clear_sensor"><input type="hidden" name="id" value="${line.id}"><button type="submit">Clear sensor</button></form>
<form method="post" action="/charter">${csrfField(csrf)}<input type="hidden" name="op" value="clear_setpoint"><input type="hidden" name="id" value="${line.id}"><button type="submit">Clear setpoint</button></form>
<form method="post" action="/charter" data-confirm="Remove line ${line.id}?">${csrfField(csrf)}<input type="hidden" name="op" value="remove"><input type="hidden" name="id" value="${line.id}"><button type="submit">Remove</button></form>
</div></details>
</li>`;
}

/** The charter: ranked lines, each editable; a form to add one; the patience each store gets. */
export function charterPage(charter: Charter | string, csrf: string, typed?: CharterTyped): Html {
  const adding = typed?.op === 'add' ? typed : undefined;
  const added = (field: string) => adding?.[field] ?? '';
  if (typeof charter === 'string') {
    return html`<h1>Charter</h1><p class="note">The charter could not be read: ${charter}</p>`;
  }
  return html`<h1>Charter</h1>
<p class="note">Your ranked priorities, highest first. Rank is position; there are no weights. Only you edit it: nothing here proposes a line.</p>
<datalist id="sensors">${charterSensors.map((sensor) => html`<option value="${sensor}"></option>`)}</datalist>
${charter.length === 0 ? html`<p>Your charter is empty.</p>` : html`<ol class="runs" id="charter-lines">${charter.map((line, index) => lineHtml(line, index + 1, csrf, typed))}</ol>`}
<h2>Add a line</h2>
<form method="post" action="/charter" class="filters">${csrfField(csrf)}<input type="hidden" name="op" value="add">
<label>Id<input name="id" size="12" required value="${added('id')}"></label>
<label>Text<input name="text" size="30" required value="${added('text')}"></label>
<label>Sensor (optional)<input name="sensor" size="16" list="sensors" value="${added('sensor')}"></label>
<label>Setpoint (optional)<input name="setpoint" size="8" placeholder="48h" value="${added('setpoint')}"></label>
<label>Rank (optional)<input name="rank" size="3" inputmode="numeric" value="${added('rank')}"></label>
<button type="submit">Add</button></form>
<h2>Patience</h2>
<table><thead><tr><th scope="col">Store</th><th scope="col">Patience</th><th scope="col">From</th></tr></thead><tbody>${commitmentStores.map(
    (store) => {
      const patience = patienceOf(charter, store);
      return html`<tr><td>${store}</td><td>${formatDuration(patience.patience)}</td><td>${patience.line === undefined ? 'default; no line watches it' : patience.source === 'setpoint' ? `line ${patience.line.id}, rank ${patience.line.rank}` : `default; line ${patience.line.id} watches it without a setpoint`}</td></tr>`;
    },
  )}</tbody></table>`;
}
