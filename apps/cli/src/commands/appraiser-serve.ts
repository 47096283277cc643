import { join } from 'node:path';
import { type Command, exitCodes, failure } from '../command.js';
import { homePath } from '../home.js';
import { flag } from '../parse-command.js';
import { appraiserModel } from './appraiser-model.js';
import { runLines, withAppraiser } from './appraiser-shared.js';

// `mecha appraiser serve`: one process holds the model for the home; every other process
// (`mecha appraiser run`, `add`) works through the store.

export const serve: Command = {
  path: 'appraiser serve',
  summary: 'hold the model and serve appraisal to every other process, until Ctrl-C',
  help: [
    'Usage: mecha appraiser serve [--threads N] [--json]',
    '',
    'Loads the model of [model] path once, reserving the key/value pages of the limits (16',
    'tokens a page: `mecha appraiser limits --pages N`) before it accepts any work; start-up is',
    'refused, with the reason, when the model cannot hold them. Then it serves this home until',
    'Ctrl-C or SIGTERM: `mecha appraiser run` in another shell asks it for the run instead of',
    'loading a model of its own, and between requests it appraises pending reports as background',
    'work on ticks while background is on and the policy is run. Its model calls take the',
    "machine's device lease, so foreground work of another process (a distill) pre-empts them;",
    'pre-empted reports are queued again and resumed at the next tick. One server per home.',
    '',
    'Options:',
    '  --threads N     CPU threads for decoding (default: [model] threads, else every core)',
    '  --json          one JSON line per event (serving, each run, stopped)',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: { threads: { type: 'string' }, json: { type: 'boolean' } },
  takesNoArguments: true,
  async run({ values, context }) {
    const path = this.path;
    const asJson = flag(values, 'json');
    const line = (value: unknown, text: string) =>
      context.stdout(`${asJson ? JSON.stringify(value) : text}\n`);
    const directory = join(homePath(context), 'appraiser');
    const gpuAppraiser = await import('@mecha/gpu-appraiser');
    let pages = 0;
    const before = await withAppraiser(context, path, (appraiser) => {
      const server = appraiser.serving();
      if (server !== null) {
        return failure(context, path, `process ${server} already serves this home`);
      }
      pages = appraiser.configuration().limits.pagesPerSequence;
      return exitCodes.ok;
    });
    if (before !== exitCodes.ok) return before;
    const made = await appraiserModel(context, path, values, gpuAppraiser.reservedTokens(pages));
    if (typeof made === 'number') return made;
    const controller = new AbortController();
    const stop = () => controller.abort();
    // `on`, not `once`: node-llama-cpp re-raises a signal it sees no other listener for.
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    try {
      const reserved = await gpuAppraiser.reserveKvPages(made.model, pages);
      if (reserved._tag === 'Left') return failure(context, path, reserved.left.message);
      const reservation = { state: 'reserved' as const, ...reserved.right };
      const result = await gpuAppraiser.serveAppraiser({
        directory,
        model: made.device,
        signal: controller.signal,
        onServing: () =>
          line(
            { serving: process.pid, reservation },
            `serving ${directory} as process ${process.pid}: ${reservation.pages} key/value pages (${reservation.tokens} tokens) reserved; Ctrl-C stops`,
          ),
        onRun: (report, request) =>
          line(
            { run: report, request: request ?? null },
            [
              request === undefined ? 'background tick' : `run request #${request}`,
              ...runLines(report),
            ].join('\n'),
          ),
      });
      if (result._tag === 'Left') return failure(context, path, result.left.message);
      line(
        { state: 'stopped', runs: result.right.runs },
        `stopped after ${result.right.runs} runs`,
      );
      return exitCodes.ok;
    } finally {
      process.removeListener('SIGINT', stop);
      process.removeListener('SIGTERM', stop);
      await made.device.dispose();
    }
  },
};
