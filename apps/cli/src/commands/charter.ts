import { userInfo } from 'node:os';
import { stripControl } from '@mecha/appraisal-core';
import { type Charter, commitmentStores, formatDuration, patienceOf } from '@mecha/charter';
import { mintOwnerEdit } from '@mecha/charter/owner';
import { isLeft } from '@mecha/errors';
import {
  type CharterChange,
  type CharterCommandOp,
  charterCommand,
  charterCommandOptions,
  editCharter,
} from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import {
  type Command,
  type CommandGroup,
  type CommandInput,
  exitCodes,
  failure,
  refused,
} from '../command.js';
import { openCommandHome } from '../home.js';
import { flag, type OptionValues } from '../parse-command.js';
import { styleFor } from '../style.js';

const sensorList = 'outbox_age, question_latency or request_closure';

function who(context: CommandContext): string {
  try {
    const name = userInfo().username;
    if (name !== '') return name;
  } catch {
    // Some containers have no passwd entry for the user; fall back to the environment.
  }
  return context.env.USER || context.env.LOGNAME || 'owner';
}

/** The charter as a listing: each line by rank, then the patience of each store. */
function renderCharter(charter: Charter, context: CommandContext): string {
  const style = styleFor({ isTTY: context.stdoutIsTTY, env: context.env });
  if (charter.length === 0) {
    return [
      'Your charter is empty. Add a line with:',
      '  mecha charter add replies "Answer what people send me" --sensor outbox_age --setpoint 2d',
      '',
    ].join('\n');
  }
  const idWidth = Math.max(...charter.map((line) => line.id.length));
  const out = [
    `Your charter: ${charter.length} line${charter.length === 1 ? '' : 's'}, highest first. Rank is position; there are no weights.`,
    '',
  ];
  charter.forEach((line, index) => {
    out.push(
      `  ${style.bold(String(index + 1).padStart(2))}  ${line.id.padEnd(idWidth)}  ${stripControl(line.text)}`,
    );
    const watch: string[] = [];
    if (line.sensor !== undefined) {
      watch.push(`sensor ${line.sensor}`);
      watch.push(
        line.setpoint === undefined
          ? 'no setpoint (default patience)'
          : `setpoint ${formatDuration(line.setpoint)}`,
      );
    } else if (line.setpoint !== undefined) {
      watch.push(`setpoint ${formatDuration(line.setpoint)} (inert until the line has a sensor)`);
    }
    if (watch.length > 0) out.push(`      ${' '.repeat(idWidth)}  ${style.dim(watch.join(' · '))}`);
  });
  out.push('', 'Patience (how long a commitment may wait before it counts):');
  for (const store of commitmentStores) {
    const patience = patienceOf(charter, store);
    const source =
      patience.line === undefined
        ? 'default; no line watches it'
        : patience.source === 'setpoint'
          ? `line ${patience.line.id}, rank ${patience.line.rank}`
          : `default; line ${patience.line.id} watches it without a setpoint`;
    out.push(`  ${store.padEnd(9)}  ${formatDuration(patience.patience)}  (${source})`);
  }
  out.push('');
  return out.join('\n');
}

function charterJson(charter: Charter): string {
  const lines = charter.map((line, index) => ({
    rank: index + 1,
    id: line.id,
    text: line.text,
    ...(line.sensor === undefined ? {} : { sensor: line.sensor }),
    ...(line.setpoint === undefined
      ? {}
      : { setpoint: formatDuration(line.setpoint), setpoint_ms: line.setpoint }),
  }));
  const patience = commitmentStores.map((store) => {
    const reading = patienceOf(charter, store);
    return {
      store,
      patience: formatDuration(reading.patience),
      patience_ms: reading.patience,
      source: reading.source,
      line: reading.line?.id ?? null,
    };
  });
  return `${JSON.stringify({ lines, patience }, null, 2)}\n`;
}

const show: Command = {
  path: 'charter',
  summary: 'show your charter: ranked lines with their sensors and setpoints',
  help: [
    'Usage: mecha charter [--json] [--home DIR]',
    '',
    'Shows your charter: each line by rank (highest first) with its sensor and setpoint, then',
    'the patience each store gets from it. Nothing here proposes a line.',
    '',
    'Options:',
    '  --json      the lines and patience as JSON',
    '  --home DIR  the mecha home (default: $MECHA_HOME, else ~/.mecha)',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  takesNoArguments: true,
  async run({ values, context }) {
    const read = openCommandHome(context).readCharter();
    if (read.state === 'unreadable') return failure(context, 'charter', read.reason);
    context.stdout(
      flag(values, 'json') ? charterJson(read.charter) : renderCharter(read.charter, context),
    );
    return exitCodes.ok;
  },
};

/**
 * Every charter edit: mint the owner-edit capability here, where the person's command arrived,
 * make one call to stores' `editCharter` (which refuses inside a run's shell and reads, edits
 * and writes under the charter's lock), and show the result.
 */
async function applyEdits(
  path: string,
  context: CommandContext,
  changes: readonly CharterChange[],
  done: string,
  asJson: boolean,
): Promise<number> {
  const edited = await editCharter(openCommandHome(context), {
    capability: mintOwnerEdit('cli', who(context)),
    env: context.env,
    changes,
  });
  if (isLeft(edited)) return refused(context, path, edited.left);
  const { charter } = edited.right;
  if (asJson) context.stdout(charterJson(charter));
  else context.stdout(`${done}\n\n${renderCharter(charter, context)}`);
  return exitCodes.ok;
}

/**
 * Runs one typed edit: stores' `charterCommand` reads the words (the same messages on every
 * surface), then {@link applyEdits} writes them.
 */
function runEdit(
  op: CharterCommandOp,
  path: string,
  values: OptionValues,
  positionals: readonly string[],
  context: CommandContext,
): Promise<number> {
  const parsed = charterCommand({ op, positionals, options: values });
  if (isLeft(parsed)) return Promise.resolve(refused(context, path, parsed.left));
  const { changes, done } = parsed.right;
  return applyEdits(path, context, changes, done, flag(values, 'json'));
}

const add: Command = {
  path: 'charter add',
  summary: 'add a line (at the bottom, or at --rank)',
  help: [
    'Usage: mecha charter add ID TEXT… [--sensor SENSOR] [--setpoint DURATION] [--rank N]',
    '',
    'Adds a line in your own words. ID is a short lowercase name other records point at',
    '(letters, digits, "_", "-", "."); the rest of the arguments are the text.',
    '',
    'Options:',
    `  --sensor SENSOR      the store the line watches: ${sensorList}`,
    '  --setpoint DURATION  how long things may wait there: 48h, 90m, 2d, 1d12h',
    '  --rank N             where it goes: 1 is the top (default: the bottom)',
    '  --json               the charter after the edit, as JSON (as `mecha charter --json`)',
    '  --home DIR           the mecha home',
    '',
  ].join('\n'),
  options: { ...charterCommandOptions.add, json: { type: 'boolean' } },
  async run({ values, positionals, context }: CommandInput) {
    return runEdit('add', this.path, values, positionals, context);
  },
};

const move: Command = {
  path: 'charter move',
  summary: 'move a line to another rank',
  help: [
    'Usage: mecha charter move ID RANK [--json]',
    '',
    'Moves a line to RANK (1 is the top); the lines in between shift by one. Rank is the only',
    'way a line matters more or less: there are no weights.',
    '',
    'Options:',
    '  --json               the charter after the edit, as JSON (as `mecha charter --json`)',
    '  --home DIR           the mecha home',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  async run({ values, positionals, context }: CommandInput) {
    return runEdit('move', this.path, values, positionals, context);
  },
};

const remove: Command = {
  path: 'charter rm',
  summary: 'remove a line',
  help: [
    'Usage: mecha charter rm ID [--json]',
    '',
    'Removes a line; the lines below it move up one rank.',
    '',
    'Options:',
    '  --json               the charter after the edit, as JSON (as `mecha charter --json`)',
    '  --home DIR           the mecha home',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  async run({ values, positionals, context }: CommandInput) {
    return runEdit('rm', this.path, values, positionals, context);
  },
};

const set: Command = {
  path: 'charter set',
  summary: "change a line's text, sensor or setpoint",
  help: [
    'Usage: mecha charter set ID [--text TEXT] [--sensor SENSOR] [--setpoint DURATION]',
    '',
    "Changes a line's text, sensor or setpoint (any of them, at least one). A sensor can be on",
    'one line only: to move it, unset it on the first line and set it on the second.',
    '',
    'Options:',
    '  --text TEXT          the line in your words',
    `  --sensor SENSOR      ${sensorList}`,
    '  --setpoint DURATION  48h, 90m, 2d, 1d12h',
    '  --json               the charter after the edit, as JSON (as `mecha charter --json`)',
    '',
  ].join('\n'),
  options: { ...charterCommandOptions.set, json: { type: 'boolean' } },
  async run({ values, positionals, context }: CommandInput) {
    return runEdit('set', this.path, values, positionals, context);
  },
};

const unset: Command = {
  path: 'charter unset',
  summary: "take a line's sensor or setpoint off",
  help: [
    'Usage: mecha charter unset ID [--sensor] [--setpoint] [--json]',
    '',
    "Takes a line's sensor or setpoint (or both) off. Without a sensor the store goes back to",
    'the default patience; a setpoint kept on a line without a sensor has no effect.',
    '',
    'Options:',
    '  --sensor             take the sensor off',
    '  --setpoint           take the setpoint off',
    '  --json               the charter after the edit, as JSON (as `mecha charter --json`)',
    '  --home DIR           the mecha home',
    '',
  ].join('\n'),
  options: { ...charterCommandOptions.unset, json: { type: 'boolean' } },
  async run({ values, positionals, context }: CommandInput) {
    return runEdit('unset', this.path, values, positionals, context);
  },
};

/** `mecha charter`: show the charter, or edit it through the owner-edit capability minted here. */
export const charterGroup: CommandGroup = {
  name: 'charter',
  summary: 'your ranked priorities, edited only by you',
  fallback: show,
  commands: [add, move, remove, set, unset],
};
