import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripControl, stripControlDeep } from '@mecha/appraisal-core';
import type {
  AppraisalConfiguration,
  AppraisalLimits,
  Appraiser,
  AppraiserStatus,
  ControlResult,
  LeaseResult,
  RunReport,
} from '@mecha/gpu-appraiser';
import { configIssueText } from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import { type Command, type CommandGroup, exitCodes, failure, usageError } from '../command.js';
import { homePath, openCommandHome } from '../home.js';
import { modelFetchPrinter } from '../model-fetch-progress.js';
import { flag, stringOption, wholeNumber } from '../parse-command.js';

// `mecha appraiser`: parse, call one @mecha/gpu-appraiser use-case, render. The appraiser's
// memory lives in <home>/appraiser; the package is loaded only when one of these commands runs.

async function open(context: CommandContext): Promise<Appraiser> {
  const { openAppraiser } = await import('@mecha/gpu-appraiser');
  return openAppraiser({ directory: join(homePath(context), 'appraiser') });
}

function print(context: CommandContext, asJson: boolean, value: unknown, lines: () => string[]) {
  if (asJson) context.stdout(`${JSON.stringify(stripControlDeep(value), null, 2)}\n`);
  else {
    const text = lines().flatMap((line) => line.split('\n'));
    context.stdout(`${text.map((line) => stripControl(line)).join('\n')}\n`);
  }
}

const onOff = (value: boolean) => (value ? 'on' : 'off');

/** The limits by their CLI names, in the order they are shown. */
const limitOptions = [
  ['pages', 'pagesPerSequence', 'pages per sequence'],
  ['tokens', 'outputTokens', 'output tokens per call'],
  ['ticks', 'ticks', 'ticks (model calls) per run'],
  ['rows', 'sourceRows', 'source rows per run'],
  ['prompt-bytes', 'promptBytes', 'prompt bytes'],
  ['output-bytes', 'outputBytesPerCall', 'output bytes per call'],
  ['recall-floor', 'recallFloor', 'recall similarity floor'],
  ['recall-priority', 'recallPriority', 'recall priority'],
] as const satisfies readonly (readonly [string, keyof AppraisalLimits, string])[];

function configurationLines(configuration: AppraisalConfiguration): string[] {
  const { flags, limits } = configuration;
  return [
    `configuration: writes ${onOff(flags.writes)}, recall ${onOff(flags.recall)}, background ${onOff(flags.background)}; policy ${configuration.policy}${configuration.imported ? '; imported (recall only: no new writes or generation)' : ''}`,
    `limits: ${limitOptions.map(([name, field]) => `${name} ${limits[field]}`).join(', ')}`,
  ];
}

function controlLines(result: ControlResult): string[] {
  if (result.state === 'refused') {
    return [
      `appraisal control: refused (#${result.id}); nothing changed`,
      ...result.problems.map((problem) => `  ${problem.message}`),
      ...configurationLines(result.configuration),
    ];
  }
  return [
    `appraisal control: pending (#${result.id}); applied at the next quiet boundary`,
    ...configurationLines(result.configuration),
  ];
}

function statusLines(status: AppraiserStatus): string[] {
  const lines = [
    `appraisal: writes ${onOff(status.flags.writes)}, recall ${onOff(status.flags.recall)}, background ${onOff(status.flags.background)}; policy ${status.policy}${status.imported ? '; imported configuration (recall only)' : ''}`,
  ];
  if (status.hold.held || status.hold.waiting !== null) {
    lines.push(
      `scheduler hold: ${status.hold.held ? 'on' : 'off'}${status.hold.waiting === null ? '' : ` (process ${status.hold.waiting} waits at it)`}`,
    );
  }
  if (status.worker !== null) lines.push(`working: process ${status.worker}`);
  if (status.journal.recoveryDeferred) {
    lines.push('recovery: deferred until the working process ends');
  }
  for (const control of status.pending) {
    lines.push(
      `appraisal control: pending (#${control.id} ${control.kind} ${JSON.stringify(control.value)}; applied at the next quiet boundary)`,
    );
  }
  const queue = status.queue;
  lines.push(
    `queue: ${queue.pending} pending, ${queue.complete} complete, ${queue.refused} refused, ${queue.interrupted} interrupted${status.boundToPreviousProcessor > 0 ? `; ${status.boundToPreviousProcessor} bound to the previous processor` : ''}`,
    `memory: ${status.sources} sources, ${status.assessments.current} current assessments, ${status.assessments.superseded} superseded`,
    `processor: ${status.processor}`,
  );
  const journal = status.journal;
  if (
    journal.tornBytes > 0 ||
    journal.recoveredInterrupted + journal.recoveredApplied + journal.recoveredRefused > 0
  ) {
    lines.push(
      `recovery: ${journal.recoveredInterrupted} interrupted, ${journal.recoveredApplied} applied, ${journal.recoveredRefused} refused; torn journal tail ${journal.tornBytes} bytes`,
    );
  }
  return lines;
}

function setting(path: string, summary: string, which: 'on' | 'off'): Command {
  return {
    path,
    summary,
    help: [
      `Usage: mecha ${path} [--background] [--json]`,
      '',
      which === 'on'
        ? 'Turns appraisal writes and recall defaults on, keeping the background setting (with\n--background, background work too).'
        : 'Turns appraisal writes, recall defaults and background work off (with --background, only\nbackground work). Existing evidence stays and can still be recalled.',
      'The setting is pending until it is applied at the next quiet boundary (add, run, retry).',
      '',
      'Options:',
      '  --background    only (off) or also (on) background work',
      '  --json          the control as JSON',
      '  --home DIR      the mecha home',
      '',
    ].join('\n'),
    options: { background: { type: 'boolean' }, json: { type: 'boolean' } },
    takesNoArguments: true,
    async run({ values, context }) {
      const appraiser = await open(context);
      try {
        const background = flag(values, 'background');
        if (which === 'on' && background) appraiser.setAppraisal('on');
        const result =
          which === 'on'
            ? appraiser.setAppraisal(background ? { background: true } : 'on')
            : appraiser.setAppraisal(background ? { background: false } : 'off');
        print(context, flag(values, 'json'), result, () => controlLines(result));
        return exitCodes.ok;
      } finally {
        appraiser.close();
      }
    },
  };
}

const status: Command = {
  path: 'appraiser status',
  summary: 'the settings, pending controls, queue and recovery',
  help: [
    'Usage: mecha appraiser status [--json]',
    '',
    'Shows the applied flags and policy, any control still pending, the queue by state, the',
    'memory and what startup recovery found in the journal. Reads only.',
    '',
    'Options:',
    '  --json          the status as JSON',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  takesNoArguments: true,
  async run({ values, context }) {
    const { appraiserStatusAt } = await import('@mecha/gpu-appraiser');
    const current = appraiserStatusAt(join(homePath(context), 'appraiser'));
    print(context, flag(values, 'json'), current, () => [
      ...statusLines(current),
      ...(current.memory === 'absent'
        ? [
            "appraiser/memory.sqlite does not exist yet: these are a new memory's settings; 'mecha appraiser add' creates it",
          ]
        : []),
    ]);
    return exitCodes.ok;
  },
};

const add: Command = {
  path: 'appraiser add',
  summary: 'retain an external report read from stdin',
  help: [
    'Usage: mecha appraiser add --owner WHO --scope SCOPE [--subject ID] [--task ID [--descriptor TEXT]] [--json] < report.txt',
    '',
    'Retains the report on stdin exactly as given. With writes on and a subject, it also gets',
    'one pending queue object in the same write; without a subject it gets none.',
    '',
    'Options:',
    '  --owner WHO        who reported it',
    '  --scope SCOPE      where it may be recalled',
    '  --subject ID       the admitted subject the report is about',
    '  --task ID          an admitted task id (task trust also needs its descriptor)',
    "  --descriptor TEXT  record the task's authored descriptor first",
    '  --json             the result as JSON',
    '  --home DIR         the mecha home',
    '',
  ].join('\n'),
  options: {
    owner: { type: 'string' },
    scope: { type: 'string' },
    subject: { type: 'string' },
    task: { type: 'string' },
    descriptor: { type: 'string' },
    json: { type: 'boolean' },
  },
  takesNoArguments: true,
  async run({ values, context }) {
    const path = this.path;
    const owner = stringOption(values, 'owner');
    const scope = stringOption(values, 'scope');
    if (!owner || !scope) return usageError(context, path, '--owner and --scope are required');
    const task = stringOption(values, 'task');
    const descriptor = stringOption(values, 'descriptor');
    if (descriptor !== undefined && task === undefined)
      return usageError(context, path, '--descriptor needs --task');
    if (process.stdin.isTTY) return usageError(context, path, 'pipe the report on stdin');
    const text = readFileSync(0, 'utf8');
    const { AppraiserInputError } = await import('@mecha/gpu-appraiser');
    const appraiser = await open(context);
    try {
      if (task !== undefined && descriptor !== undefined) appraiser.describeTask(task, descriptor);
      const subject = stringOption(values, 'subject');
      const result = appraiser.retainSource({
        text,
        owner,
        scope,
        ...(subject === undefined ? {} : { subject }),
        ...(task === undefined ? {} : { task }),
      });
      print(context, flag(values, 'json'), result, () => [
        `retained source #${result.sourceId}${result.queueId === null ? ` (no queue: ${result.reason?.replace(/_/g, ' ')})` : `, queued #${result.queueId}`}`,
      ]);
      return exitCodes.ok;
    } catch (error) {
      if (AppraiserInputError.isInstance(error)) return failure(context, path, error.message);
      throw error;
    } finally {
      appraiser.close();
    }
  },
};

function runLines(report: RunReport): string[] {
  const lines = [
    `run: ${report.state.replace(/_/g, ' ')} (${report.items.length} sources, ${report.modelCalls} model calls)`,
  ];
  for (const item of report.items) {
    lines.push(
      `  queue #${item.queueId} (source #${item.sourceId}): ${item.state}${item.reason ? ` — ${item.reason}` : ''}${item.assessmentId ? ` → assessment #${item.assessmentId}` : ''}`,
    );
  }
  return lines;
}

const run: Command = {
  path: 'appraiser run',
  summary: 'appraise pending reports with the local model',
  help: [
    'Usage: mecha appraiser run [--background] [--threads N] [--json]',
    '',
    'Applies pending controls, then appraises pending reports with the model of [model] path in',
    'config.toml: two grammar-constrained calls per report. An explicit run never turns',
    'background work on; --background runs only when it is on. Ctrl-C interrupts the current',
    'report (recorded interrupted; `mecha appraiser retry` queues it again).',
    '',
    'Options:',
    '  --background    run as background work (needs background on)',
    '  --threads N     CPU threads for decoding (default: [model] threads, else every core)',
    '  --json          the report as JSON',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: {
    background: { type: 'boolean' },
    threads: { type: 'string' },
    json: { type: 'boolean' },
  },
  takesNoArguments: true,
  async run({ values, context }) {
    const path = this.path;
    const threadsText = stringOption(values, 'threads');
    const threads = threadsText === undefined ? undefined : wholeNumber(threadsText, '--threads');
    if (threads !== undefined && !threads.ok) return usageError(context, path, threads.message);
    const home = openCommandHome(context);
    const configFile = join(home.path, 'config.toml');
    const config = home.readConfig();
    if (config._tag === 'Left') {
      return failure(
        context,
        path,
        `config.toml has problems: ${config.left.map(configIssueText).join('; ')}`,
      );
    }
    const localModel = await import('@mecha/local-model');
    const modelPath = await localModel.resolveModelPath(config.right.model, {
      configFile,
      onFetch: modelFetchPrinter({
        write: context.stderr,
        isTTY: context.stderrIsTTY,
        label: `mecha ${path}`,
      }),
    });
    if (!modelPath.ok) return failure(context, path, `${modelPath.error.message}`);
    const settings = localModel.resolveModelSettings(config.right.model);
    if (!settings.ok) {
      return failure(
        context,
        path,
        settings.problems.map((problem) => `[model] ${problem.key} ${problem.message}`).join('; '),
      );
    }
    const model = localModel.createLocalModel({
      path: modelPath.path,
      ...settings.settings,
      ...(threads === undefined ? {} : { threads: threads.value }),
    });
    // The machine's device lease: foreground work of another process (a distill) pre-empts a
    // background run at its next token; a foreground run waits for the device like any other.
    const device = localModel.createDeviceScheduler(model, {
      lease: localModel.openDeviceLease({
        directory: localModel.deviceLeaseDirectory(home.path, context.env),
      }),
    });
    const { openAppraiser } = await import('@mecha/gpu-appraiser');
    const appraiser = openAppraiser({ directory: join(home.path, 'appraiser'), model: device });
    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once('SIGINT', interrupt);
    try {
      const report = await appraiser.run({
        background: flag(values, 'background'),
        signal: controller.signal,
      });
      print(context, flag(values, 'json'), report, () => runLines(report));
      return report.state === 'done' ? exitCodes.ok : exitCodes.failure;
    } finally {
      process.removeListener('SIGINT', interrupt);
      appraiser.close();
      await device.dispose();
    }
  },
};

const retry: Command = {
  path: 'appraiser retry',
  summary: 'queue refused or interrupted reports again',
  help: [
    'Usage: mecha appraiser retry [QUEUE_ID…] [--json]',
    '',
    'Queues refused and interrupted work again (all of it, or the queue ids named). Work bound to',
    'a previous processor and completed work are refused, with the reason.',
    '',
    'Options:',
    '  --json          the result as JSON',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  async run({ values, positionals, context }) {
    const ids: number[] = [];
    for (const text of positionals) {
      const parsed = wholeNumber(text, 'QUEUE_ID');
      if (!parsed.ok) return usageError(context, this.path, parsed.message);
      ids.push(parsed.value);
    }
    const appraiser = await open(context);
    try {
      const items = appraiser.retry(ids.length > 0 ? ids : undefined);
      print(context, flag(values, 'json'), items, () =>
        items.length === 0
          ? ['nothing to retry']
          : items.map(
              (item) =>
                `queue #${item.queueId}: ${item.state}${item.reason ? ` — ${item.reason}` : ''}`,
            ),
      );
      return items.some((item) => item.state === 'refused') ? exitCodes.failure : exitCodes.ok;
    } finally {
      appraiser.close();
    }
  },
};

const recall: Command = {
  path: 'appraiser recall',
  summary: 'rank retained reports for a caller and render a bounded context',
  help: [
    'Usage: mecha appraiser recall --owner WHO --scope SCOPE --query TEXT [--task ID] [--participant WHO]',
    '                              [--priority N] [--revision 3|4] [--share] [--json]',
    '',
    'Ranks the available reports in SCOPE against the query and prints the bounded context (at',
    'most 16 references in 4096 bytes). With recall defaults on, results with a known intensity',
    'bring their evidence and priority; --priority asks for them explicitly whatever the default.',
    'Writes nothing.',
    '',
    'Options:',
    '  --owner WHO      the caller',
    '  --scope SCOPE    the scope to recall from',
    '  --query TEXT     what to recall',
    '  --task ID        only reports admitted with this task (task trust is shown only for it)',
    '  --participant WHO only reports about WHO (subject) or reported by WHO (owner)',
    '  --priority N     explicit appraisal priority, 0–1000000',
    '  --revision N     the context revision (default 4)',
    '  --share          record the context as a shared lease (revision 4) and print its id',
    '  --json           the ranking and context as JSON',
    '  --home DIR       the mecha home',
    '',
  ].join('\n'),
  options: {
    owner: { type: 'string' },
    scope: { type: 'string' },
    query: { type: 'string' },
    task: { type: 'string' },
    participant: { type: 'string' },
    priority: { type: 'string' },
    revision: { type: 'string' },
    share: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  takesNoArguments: true,
  async run({ values, context }) {
    const path = this.path;
    const owner = stringOption(values, 'owner');
    const scope = stringOption(values, 'scope');
    const query = stringOption(values, 'query');
    if (!owner || !scope || !query)
      return usageError(context, path, '--owner, --scope and --query are required');
    const numbers: Record<string, number> = {};
    for (const name of ['priority', 'revision'] as const) {
      const text = stringOption(values, name);
      if (text === undefined) continue;
      const parsed = wholeNumber(text, `--${name}`, 0);
      if (!parsed.ok) return usageError(context, path, parsed.message);
      numbers[name] = parsed.value;
    }
    if (numbers.priority !== undefined && numbers.priority > 1_000_000) {
      return usageError(context, path, '--priority takes 0 to 1000000');
    }
    const task = stringOption(values, 'task');
    const participant = stringOption(values, 'participant');
    const appraiser = await open(context);
    try {
      const request = {
        owner,
        scope,
        query,
        ...(task === undefined ? {} : { task }),
        ...(participant === undefined ? {} : { participant }),
        ...(numbers.priority === undefined ? {} : { appraisal: { priority: numbers.priority } }),
        ...(numbers.revision === undefined ? {} : { revision: numbers.revision }),
      };
      if (flag(values, 'share')) {
        const lease = appraiser.shareContext(request);
        if (lease.state === 'refused') return failure(context, path, lease.reason);
        print(context, flag(values, 'json'), lease, () => leaseLines(lease));
        return exitCodes.ok;
      }
      const result = appraiser.recall(request);
      if (result.state === 'refused') return failure(context, path, result.reason);
      print(context, flag(values, 'json'), result, () => [
        `${result.ranked.length} ranked; context revision ${result.context.revision}: ${result.context.references} references, ${result.context.memoryBytes} bytes`,
        ...(result.context.system === '' ? [] : [result.context.system]),
        result.context.text,
      ]);
      return exitCodes.ok;
    } finally {
      appraiser.close();
    }
  },
};

const limits: Command = {
  path: 'appraiser limits',
  summary: 'show or set the work limits (pending until a quiet boundary)',
  help: [
    'Usage: mecha appraiser limits [--pages N] [--tokens N] [--ticks N] [--rows N] [--prompt-bytes N]',
    '                              [--output-bytes N] [--recall-floor N] [--recall-priority N] [--json]',
    '',
    'Without options, shows the limits (pending controls included) with the range each accepts.',
    'With options, records a new limits control: every value is checked at once, a refusal names',
    'each bad one and changes nothing (exit 1); accepted limits are pending until the next quiet',
    'boundary and cancel a running appraisal, here or in another process.',
    '',
    'Options:',
    '  --pages N             key/value pages per sequence (positive)',
    '  --tokens N            output tokens per call (1–4096)',
    '  --ticks N             model calls per run (positive)',
    '  --rows N              sources per run (1–64)',
    '  --prompt-bytes N      prompt bytes; a larger prompt is refused before any call (positive)',
    '  --output-bytes N      answer bytes per call (1–4096)',
    '  --recall-floor N      recall similarity floor (0–1000000)',
    '  --recall-priority N   default recall priority (0–1000000)',
    '  --json                the configuration, or the control and its answer, as JSON',
    '  --home DIR            the mecha home',
    '',
  ].join('\n'),
  options: {
    ...Object.fromEntries(limitOptions.map(([name]) => [name, { type: 'string' as const }])),
    json: { type: 'boolean' },
  },
  takesNoArguments: true,
  async run({ values, context }) {
    const path = this.path;
    const asked: Partial<Record<keyof AppraisalLimits, number>> = {};
    for (const [name, field] of limitOptions) {
      const text = stringOption(values, name);
      if (text === undefined) continue;
      // Any integer is passed on: the range check and its refusal are the appraiser's.
      if (!/^-?\d{1,16}$/.test(text))
        return usageError(context, path, `--${name} takes an integer, not ${JSON.stringify(text)}`);
      asked[field] = Number(text);
    }
    const { appraisalLimitRanges } = await import('@mecha/gpu-appraiser');
    const appraiser = await open(context);
    try {
      if (Object.keys(asked).length === 0) {
        const configuration = appraiser.configuration();
        print(context, flag(values, 'json'), { configuration, ranges: appraisalLimitRanges }, () =>
          limitOptions.map(([name, field, words]) => {
            const [min, max] = appraisalLimitRanges[field];
            const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `${min}–${max}`;
            return `--${name.padEnd(16)}${String(configuration.limits[field]).padStart(8)}  ${words} (accepts ${range})`;
          }),
        );
        return exitCodes.ok;
      }
      const result = appraiser.setLimits(asked);
      print(context, flag(values, 'json'), result, () => controlLines(result));
      return result.state === 'refused' ? exitCodes.failure : exitCodes.ok;
    } finally {
      appraiser.close();
    }
  },
};

function policyCommand(
  name: 'pause' | 'stop' | 'resume',
  policy: 'paused' | 'stopped' | 'run',
  summary: string,
  text: string,
): Command {
  return {
    path: `appraiser ${name}`,
    summary,
    help: [
      `Usage: mecha appraiser ${name} [--json]`,
      '',
      text,
      'The control is pending until the next quiet boundary, and cancels a running appraisal (here',
      'or in another process) within one token.',
      '',
      'Options:',
      '  --json          the control and the configuration it leads to, as JSON',
      '  --home DIR      the mecha home',
      '',
    ].join('\n'),
    options: { json: { type: 'boolean' } },
    takesNoArguments: true,
    async run({ values, context }) {
      const appraiser = await open(context);
      try {
        const result = appraiser.setPolicy(policy);
        print(context, flag(values, 'json'), result, () => controlLines(result));
        return exitCodes.ok;
      } finally {
        appraiser.close();
      }
    },
  };
}

function holdCommand(name: 'hold' | 'release'): Command {
  return {
    path: `appraiser ${name}`,
    summary:
      name === 'hold'
        ? 'suspend every appraisal tick (model call), in every process, at once'
        : 'let appraisal ticks resume',
    help: [
      `Usage: mecha appraiser ${name} [--json]`,
      '',
      name === 'hold'
        ? 'Puts the scheduler hold on, at once (not pending): no appraisal starts a model call while it\nis on, in this or any other process; a call already decoding finishes. A control given during\nthe hold cancels the held appraisal when ticks resume.'
        : 'Takes the scheduler hold off: held appraisals resume at their next tick, where a control\ngiven meanwhile cancels them.',
      '',
      'Options:',
      '  --json          the hold as JSON',
      '  --home DIR      the mecha home',
      '',
    ].join('\n'),
    options: { json: { type: 'boolean' } },
    takesNoArguments: true,
    async run({ values, context }) {
      const appraiser = await open(context);
      try {
        if (name === 'hold') appraiser.hold();
        else appraiser.release();
        const hold = appraiser.status().hold;
        print(context, flag(values, 'json'), hold, () => [
          `scheduler hold: ${hold.held ? 'on' : 'off'}${hold.waiting === null ? '' : ` (process ${hold.waiting} waits at it)`}`,
        ]);
        return exitCodes.ok;
      } finally {
        appraiser.close();
      }
    },
  };
}

/** The flags of a previous configuration: a number (writes=1, recall=2, background=4) or status's booleans. */
function importedFlags(value: unknown): number | undefined {
  const flags = (value as { flags?: unknown } | null)?.flags;
  if (typeof flags === 'number') return flags;
  if (typeof flags !== 'object' || flags === null) return undefined;
  const set = flags as Record<string, unknown>;
  const bits = { writes: 1, recall: 2, background: 4 } as const;
  let total = 0;
  for (const [key, bit] of Object.entries(bits)) {
    if (typeof set[key] !== 'boolean') return undefined;
    if (set[key]) total += bit;
  }
  return total;
}

const importCommand: Command = {
  path: 'appraiser import',
  summary: 'import a previous configuration (recall only: no new writes or generation)',
  help: [
    'Usage: mecha appraiser import FILE [--json]',
    '',
    'Imports a previous configuration from FILE: JSON with "flags", a number (writes=1, recall=2,',
    'background=4) or the booleans `mecha appraiser status --json` prints. Once applied, recall',
    'works as it did and new appraisal writes and generation are off, until an explicit',
    '`mecha appraiser on|off` selects the current processor again. Pending until a quiet boundary.',
    '',
    'Options:',
    '  --json          the control and the configuration it leads to, as JSON',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  async run({ values, positionals, context }) {
    const path = this.path;
    if (positionals.length !== 1) return usageError(context, path, 'name one FILE');
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(positionals[0] as string, 'utf8'));
    } catch (error) {
      return failure(context, path, `cannot read ${positionals[0]}: ${(error as Error).message}`);
    }
    const flags = importedFlags(parsed);
    if (flags === undefined) {
      return failure(
        context,
        path,
        `${positionals[0]} holds no "flags" (a number, or writes/recall/background booleans); nothing was imported`,
      );
    }
    const { AppraiserInputError } = await import('@mecha/gpu-appraiser');
    const appraiser = await open(context);
    try {
      const result = appraiser.importConfiguration({ flags });
      print(context, flag(values, 'json'), result, () => controlLines(result));
      return exitCodes.ok;
    } catch (error) {
      if (AppraiserInputError.isInstance(error)) return failure(context, path, error.message);
      throw error;
    } finally {
      appraiser.close();
    }
  },
};

function leaseLines(lease: Extract<LeaseResult, { state: 'ok' }>): string[] {
  return [
    `shared lease #${lease.leaseId}: revision ${lease.revision}, rendering policy ${lease.policy}; ${lease.context.references} references, ${lease.context.memoryBytes} bytes${lease.reproduced ? '' : ' (this build renders it differently now; shown as recorded)'}`,
    ...(lease.context.system === '' ? [] : [lease.context.system]),
    lease.context.text,
  ];
}

const leaseCommand: Command = {
  path: 'appraiser lease',
  summary: 'show a shared context lease exactly as it was recorded',
  help: [
    'Usage: mecha appraiser lease ID [--json]',
    '',
    'Prints the shared lease ID (made by `mecha appraiser recall --share`) exactly as it was',
    'rendered, whatever its revision; a lease of a revision this build does not know is refused.',
    '',
    'Options:',
    '  --json          the lease as JSON',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  async run({ values, positionals, context }) {
    const path = this.path;
    if (positionals.length !== 1) return usageError(context, path, 'name one lease ID');
    const id = wholeNumber(positionals[0] as string, 'ID');
    if (!id.ok) return usageError(context, path, id.message);
    const appraiser = await open(context);
    try {
      const lease = appraiser.readLease(id.value);
      if (lease.state === 'refused') return failure(context, path, lease.reason);
      print(context, flag(values, 'json'), lease, () => leaseLines(lease));
      return exitCodes.ok;
    } finally {
      appraiser.close();
    }
  },
};

/** `mecha appraiser`: @mecha/gpu-appraiser's use-cases, loaded only when one runs. */
export const appraiserGroup: CommandGroup = {
  name: 'appraiser',
  summary: 'appraise external reports with the local model; recall them',
  commands: [
    setting('appraiser on', 'turn appraisal on (pending until a quiet boundary)', 'on'),
    setting('appraiser off', 'turn appraisal off (pending until a quiet boundary)', 'off'),
    status,
    limits,
    policyCommand(
      'pause',
      'paused',
      'pause appraisal admission (pending until a quiet boundary)',
      'Sets the policy to paused: no appraisal run is admitted until `mecha appraiser resume`.',
    ),
    policyCommand(
      'stop',
      'stopped',
      'stop appraisal admission (pending until a quiet boundary)',
      'Sets the policy to stopped: no appraisal run is admitted until `mecha appraiser resume`.',
    ),
    policyCommand(
      'resume',
      'run',
      'admit appraisal runs again after pause or stop',
      'Sets the policy back to run: appraisal runs are admitted again.',
    ),
    holdCommand('hold'),
    holdCommand('release'),
    importCommand,
    add,
    run,
    retry,
    recall,
    leaseCommand,
  ],
};
