import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, exitCodes, usageError } from '../command.js';
import { flag, stringOption, wholeNumber } from '../parse-command.js';
import { appraiserModel } from './appraiser-model.js';
import { runOnServer } from './appraiser-served-run.js';
import { print, runLines, withAppraiser } from './appraiser-shared.js';

// `mecha appraiser add|run|retry`: intake and work.

export const add: Command = {
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
    return withAppraiser(context, this.path, (appraiser) => {
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
    });
  },
};

export const run: Command = {
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
    'While `mecha appraiser serve` serves this home, the run is asked of that process (which holds',
    'the model) and its report printed: this process loads no model. Ctrl-C then stops waiting;',
    'the serving process finishes the run. While it serves another home on this machine with the',
    'same GGUF, this process runs the appraisal and sends its model calls to that process; when',
    "that process holds another GGUF, stderr says so and this process loads its own (on the machine's",
    'device lease all the same). --json says whose model ran ("model").',
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
    const background = flag(values, 'background');
    const served = await runOnServer(context, path, background, flag(values, 'json'));
    if (served !== undefined) return served;
    const made = await appraiserModel(context, path, values);
    if (typeof made === 'number') return made;
    const { openAppraiser } = await import('@mecha/gpu-appraiser');
    const appraiser = openAppraiser({
      directory: join(made.home, 'appraiser'),
      model: made.device,
    });
    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once('SIGINT', interrupt);
    try {
      const report = await appraiser.run({ background, signal: controller.signal });
      // Whose model ran: the machine's server, or this process's own (and why not the server's).
      const model = made.served
        ? { served: true, pid: made.served.pid, url: made.served.url }
        : {
            served: false,
            path: made.modelPath,
            ...(made.notServed === undefined ? {} : { notServed: made.notServed }),
          };
      print(context, flag(values, 'json'), { ...report, model }, () => runLines(report));
      return report.state === 'done' ? exitCodes.ok : exitCodes.failure;
    } finally {
      process.removeListener('SIGINT', interrupt);
      appraiser.close();
      await made.device.dispose();
    }
  },
};

export const retry: Command = {
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
    return withAppraiser(context, this.path, (appraiser) => {
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
    });
  },
};
