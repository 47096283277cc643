import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { stripControl } from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import {
  type CharterSensorFinding,
  checkHome,
  type HomeCheck,
  type MechaHome,
  type RepairOutcome,
  repairHome,
  type StoreCheck,
  saturationRuns,
} from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import { type Command, type CommandGroup, exitCodes, usageError } from '../command.js';
import { checkGraphServer, type GraphServerCheck } from '../graph-server-check.js';
import { openCommandHome } from '../home.js';
import { type HomeFile, homeInventory } from '../home-inventory.js';
import { flag } from '../parse-command.js';

function storeLine(store: StoreCheck): string[] {
  switch (store.state) {
    case 'read':
      return [`  ok          ${store.file} (${store.records} records)`];
    case 'partial':
      return [
        `  partial     ${store.file} (${store.records} records kept, ${store.skipped.length} damaged)`,
        ...store.skipped.map(
          (line) =>
            `                ${line.file}${line.line > 0 ? ` line ${line.line}` : ''}: ${line.reason}`,
        ),
      ];
    default:
      return [`  unreadable  ${store.file}: ${store.reason}`];
  }
}

const findingWords: Readonly<Record<CharterSensorFinding['finding'], string>> = {
  pinned:
    'pinned: past its setpoint in every run read, so it no longer tells a good day from a bad one',
  never_moving: 'never moving: the same level in every run read; is the store still written?',
  never_read: 'never read: no run could read it whole',
  too_few_runs: `too few runs read to judge saturation (fewer than ${saturationRuns})`,
  ok: 'moving',
};

function hours(ms: number): string {
  const value = ms / 3_600_000;
  return `${Number.isInteger(value) ? value : value.toFixed(1)}h`;
}

/** What the closure guarantee rests on, as the harness recorded its tools (`mecha tools`). */
function guaranteeLines(guarantee: HomeCheck['closureGuarantee']): string[] {
  switch (guarantee.state) {
    case 'none':
      return ['', 'Closure guarantee: no harness recorded its tools here (see mecha tools).'];
    case 'unreadable':
      return ['', `Closure guarantee: the tool registry could not be read (${guarantee.reason}).`];
    case 'read':
      return guarantee.findings.length === 0
        ? ['', 'Closure guarantee: holds (every task tool guarded, the run shell confined).']
        : [
            '',
            'Closure guarantee: does not hold (mecha tools):',
            ...guarantee.findings.map((finding) => `  - ${finding.message}`),
          ];
  }
}

/** The charter sensors as the newest runs read them: threshold and saturation per line. */
function sensorLines(findings: HomeCheck['charterSensors']): string[] {
  if (findings.length === 0) return [];
  return [
    '',
    'Charter sensors (as the newest runs read them at their start):',
    ...findings.map(
      (found) =>
        `  ${found.line} (${found.sensor}, setpoint ${hours(found.setpointMs)}${found.setpointSource === 'default' ? ' by default' : ''}): ${found.runsPastSetpoint} of ${found.runsRead} runs past it${found.runsNotRead > 0 ? `, ${found.runsNotRead} not read` : ''}; ${findingWords[found.finding]}`,
    ),
  ];
}

/** The Slack app's ledger (`slack/posted.jsonl`): absent, read, or damaged with the reason. */
type SlackLedgerCheck =
  | { readonly state: 'none' }
  | { readonly state: 'read'; readonly runs: number; readonly drafts: number }
  | { readonly state: 'damaged'; readonly reason: string };

async function checkSlackLedger(homePath: string): Promise<SlackLedgerCheck> {
  const { readSlackLedger, slackLedgerFile } = await import('@mecha/slack');
  if (!existsSync(join(homePath, slackLedgerFile))) return { state: 'none' };
  const read = readSlackLedger(homePath);
  return isLeft(read)
    ? { state: 'damaged', reason: read.left }
    : { state: 'read', runs: read.right.runs.size, drafts: read.right.drafts.size };
}

function slackLine(slack: SlackLedgerCheck): string[] {
  if (slack.state === 'none') return [];
  if (slack.state === 'read') {
    return [
      `  slack       slack/posted.jsonl (${slack.runs} run line(s), ${slack.drafts} draft(s) posted)`,
    ];
  }
  return [
    `  damaged     ${slack.reason}`,
    '                mecha slack posts nothing while it is damaged: fix or remove that line (or move the file aside; then only what happens after the next start is posted)',
  ];
}

function graphServerLine(graph: GraphServerCheck): string {
  switch (graph.state) {
    case 'none':
      return '  graph server none configured';
    case 'remote':
      return `  graph server ${graph.url} (reached over HTTP; not started here)`;
    case 'started':
      return `  graph server started: ${graph.command} ${graph.version}`;
    default:
      return `  graph server does not start: ${graph.message}`;
  }
}

function render(
  check: HomeCheck,
  graphServer: GraphServerCheck | undefined,
  files: readonly HomeFile[] | undefined,
  repairs: readonly RepairOutcome[] | undefined,
  slack: SlackLedgerCheck = { state: 'none' },
): string {
  const lines = [`mecha doctor: ${check.path}`, ''];
  if (!check.exists) {
    lines.push(
      'There is no mecha home here. Create one with:',
      `  mecha init --home ${check.path}`,
    );
    return `${lines.map(stripControl).join('\n')}\n`;
  }
  lines.push(
    `  manifest    ${check.manifest.state === 'unreadable' ? `unreadable: ${check.manifest.reason}` : check.manifest.state}`,
    `  config      ${check.config.state === 'invalid' ? `invalid: ${check.config.issues.join('; ')}` : check.config.state === 'default' ? 'none (defaults)' : 'read'}`,
    `  charter     ${check.charter.state === 'read' ? `${check.charter.lines} line(s)` : `unreadable: ${check.charter.reason}`}`,
    `  model       ${check.model === null ? 'none configured ([model] path)' : `${check.model.path}${check.model.exists ? '' : ' (missing)'}`}`,
    `  graph       ${check.graph === null ? 'no [[mcp]] graph server configured' : (check.graph.url ?? check.graph.command)}`,
    `  distill     ${
      check.distillGivenUp === null
        ? 'the ledger cannot be read'
        : check.distillGivenUp.length === 0
          ? 'no session given up'
          : `${check.distillGivenUp.length} session(s) given up after a failure that repeated on every try (not retried):`
    }`,
    ...(check.distillGivenUp ?? []).map(
      (given) => `                ${given.sessionId}: ${given.reason}`,
    ),
    ...(graphServer === undefined ? [] : [graphServerLine(graphServer)]),
    '',
    'Stores:',
    ...check.stores.flatMap(storeLine),
    ...storeLine(check.sessions),
    ...check.transcripts.flatMap(storeLine),
    ...slackLine(slack),
  );
  if (files !== undefined) {
    lines.push('', 'Files this home may hold:');
    const width = Math.max(...files.map((file) => file.path.length));
    for (const file of files) {
      lines.push(
        `  ${file.present ? 'present' : 'absent '}  ${file.path.padEnd(width)}  ${file.writtenBy}`,
      );
    }
  }
  if (check.locks.length > 0) {
    lines.push('', 'Lock files:');
    for (const lock of check.locks) {
      const holder = lock.holder;
      lines.push(
        `  ${lock.file}: ${
          holder.state === 'free'
            ? 'released'
            : holder.state === 'unreadable'
              ? 'unreadable (left by a crash; the next writer breaks it)'
              : holder.state === 'stale'
                ? `left by process ${holder.pid}, which is gone (the next writer breaks it)`
                : holder.state === 'remote'
                  ? `held by process ${holder.pid} on ${holder.host} (never broken from here)`
                  : `held by process ${holder.pid}`
        }`,
      );
    }
  }
  lines.push(...sensorLines(check.charterSensors), ...guaranteeLines(check.closureGuarantee));
  lines.push('');
  if (repairs !== undefined) {
    if (repairs.length === 0) lines.push('Nothing to repair: no store has damaged lines.');
    for (const repair of repairs) {
      if (repair.state === 'repaired') {
        lines.push(
          `Repaired ${repair.file}: kept ${repair.repair.kept} lines, discarded ${repair.repair.discarded.length}; the original is ${repair.repair.backup}`,
        );
      } else lines.push(`Not repaired ${repair.file}: ${repair.message}`);
    }
  } else if (check.healthy && slack.state !== 'damaged') lines.push('Every store reads whole.');
  else if ([...check.stores, ...check.transcripts].some((store) => store.state === 'partial')) {
    lines.push(
      "Run 'mecha doctor --repair' to compact the damaged stores (each original is copied beside it first).",
    );
  }
  if (
    [...check.stores, check.sessions].some(
      (store) => store.state === 'unreadable' && /vanished/.test(store.reason),
    )
  ) {
    lines.push(
      'A vanished store cannot be repaired: restore it from a backup, or accept the loss by removing its entry from manifest.json (or sessions/known.log).',
    );
  }
  return `${lines.map(stripControl).join('\n')}\n`;
}

const doctor: Command = {
  path: 'doctor',
  summary: "every store's state, the config, model, graph server and locks; --repair compacts",
  help: `Usage: mecha doctor [--repair] [--json]

Reads every part of the home and says what state it is in: each store (read, partial with
every damaged file:line and reason, unreadable with the reason, vanished), the session listing
and every transcript not read whole, config.toml, the charter, the model file, the graph server
and any lock files with their holders, and the Slack app's ledger (slack/posted.jsonl).
Each sensored charter line is shown as the newest runs read it at their start: its
setpoint, how many runs were past it, and whether the sensor is saturated (past its
setpoint in every run, or never moving); that is advice, not a failure. The closure
guarantee is shown as mecha tools reads it. The graph server is started the way every
command starts it, with --version (it opens no database), and doctor says what to do when it
does not. Last, every file the home may hold, present or absent, with what writes it.

Options:
  --repair    compact every store with damaged lines: the original is copied beside it
              (<file>.damaged-<time>) and the file is rewritten with every intact line as it was
  --json      print the report (and what --repair did) as one JSON document
  -h, --help  show this help

Exit codes: 0 when every store reads whole (or --repair fixed what it could), 1 when the home
does not exist or something still needs you, 2 usage.
`,
  options: { json: { type: 'boolean' }, repair: { type: 'boolean' } },
  homeMayBeMissing: true,
  async run({ values, positionals, context }) {
    if (positionals.length > 0) return usageError(context, 'doctor', 'takes no arguments');
    const home = openCommandHome(context);
    let check = await checkHome(home);
    let repairs: RepairOutcome[] | undefined;
    if (flag(values, 'repair') && check.exists) {
      repairs = await repairHome(home, check);
      check = await checkHome(home);
    }
    const slack = check.exists ? await checkSlackLedger(home.path) : { state: 'none' as const };
    const graphServer = check.exists ? graphServerOf(home) : undefined;
    const files = check.exists ? await homeInventory(home.path) : undefined;
    report(context, check, graphServer, files, repairs, flag(values, 'json'), slack);
    return check.healthy && slack.state !== 'damaged' && graphServer?.state !== 'not_started'
      ? exitCodes.ok
      : exitCodes.failure;
  },
};

function report(
  context: CommandContext,
  check: HomeCheck,
  graphServer: GraphServerCheck | undefined,
  files: readonly HomeFile[] | undefined,
  repairs: RepairOutcome[] | undefined,
  json: boolean,
  slack: SlackLedgerCheck,
): void {
  if (json)
    context.stdout(
      `${JSON.stringify(
        {
          ...check,
          ...(graphServer === undefined ? {} : { graphServer }),
          ...(files === undefined ? {} : { files }),
          ...(repairs === undefined ? {} : { repairs }),
          slack,
        },
        null,
        2,
      )}\n`,
    );
  else context.stdout(render(check, graphServer, files, repairs, slack));
}

/** The home's `graph` server, started with --version the way every command starts it. */
function graphServerOf(home: MechaHome): GraphServerCheck | undefined {
  const config = home.readConfig();
  if (config._tag === 'Left') return undefined;
  return checkGraphServer(config.right.mcp.find((entry) => entry.name === 'graph'));
}

/** `mecha doctor`: the state of every part of a home. */
export const doctorGroup: CommandGroup = {
  name: 'doctor',
  summary: doctor.summary,
  fallback: doctor,
  commands: [],
};
