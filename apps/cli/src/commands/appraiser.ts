import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripControl, stripControlDeep } from '@mecha/appraisal-core';
import type { Appraiser, AppraiserStatus, RunReport } from '@mecha/gpu-appraiser';
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

function statusLines(status: AppraiserStatus): string[] {
  const lines = [
    `appraisal: writes ${onOff(status.flags.writes)}, recall ${onOff(status.flags.recall)}, background ${onOff(status.flags.background)}; policy ${status.policy}${status.imported ? '; imported configuration (recall only)' : ''}`,
  ];
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
        print(context, flag(values, 'json'), result, () => [
          `appraisal control: pending (#${result.id}); applied at the next quiet boundary`,
        ]);
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
    const { openAppraiser } = await import('@mecha/gpu-appraiser');
    const appraiser = openAppraiser({ directory: join(home.path, 'appraiser'), model });
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
      await model.dispose();
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
    'Usage: mecha appraiser recall --owner WHO --scope SCOPE --query TEXT [--task ID] [--priority N] [--revision 3|4] [--json]',
    '',
    'Ranks the available reports in SCOPE against the query and prints the bounded context (at',
    'most 16 references in 4096 bytes). Appraisal priority is added by default only when',
    '--priority is not given. Writes nothing.',
    '',
    'Options:',
    '  --owner WHO      the caller',
    '  --scope SCOPE    the scope to recall from',
    '  --query TEXT     what to recall',
    '  --task ID        the caller’s task context (task trust is shown only for it)',
    '  --priority N     explicit appraisal priority, 0–1000000',
    '  --revision N     the context revision (default 4)',
    '  --json           the ranking and context as JSON',
    '  --home DIR       the mecha home',
    '',
  ].join('\n'),
  options: {
    owner: { type: 'string' },
    scope: { type: 'string' },
    query: { type: 'string' },
    task: { type: 'string' },
    priority: { type: 'string' },
    revision: { type: 'string' },
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
    const appraiser = await open(context);
    try {
      const result = appraiser.recall({
        owner,
        scope,
        query,
        ...(task === undefined ? {} : { task }),
        ...(numbers.priority === undefined ? {} : { appraisal: { priority: numbers.priority } }),
        ...(numbers.revision === undefined ? {} : { revision: numbers.revision }),
      });
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

/** `mecha appraiser`: @mecha/gpu-appraiser's use-cases, loaded only when one runs. */
export const appraiserGroup: CommandGroup = {
  name: 'appraiser',
  summary: 'appraise external reports with the local model; recall them',
  commands: [
    setting('appraiser on', 'turn appraisal on (pending until a quiet boundary)', 'on'),
    setting('appraiser off', 'turn appraisal off (pending until a quiet boundary)', 'off'),
    status,
    add,
    run,
    retry,
    recall,
  ],
};
