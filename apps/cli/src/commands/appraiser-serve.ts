import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ModelEndpoint } from '@mecha/local-model';
import { configIssueText, openHome } from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import { type Command, exitCodes, failure } from '../command.js';
import { homePath } from '../home.js';
import { flag } from '../parse-command.js';
import { servedHomes } from '../served-model.js';
import { appraiserModel } from './appraiser-model.js';
import { runLines, withAppraiser } from './appraiser-shared.js';

// `mecha appraiser serve`: one process per machine holds the model. It serves its home's
// appraisal through the store (`mecha appraiser run`, `add`), and the model itself to every
// process of every home over loopback HTTP (`serveModel` in @mecha/local-model).

/** A second serve: names the first (its pid and endpoint) and exits 1. */
function alreadyServing(
  context: CommandContext,
  path: string,
  endpoint: ModelEndpoint,
  directory: string,
): number {
  return failure(
    context,
    path,
    `process ${endpoint.pid} already serves the model on this machine at ${endpoint.url} (endpoint file ${modelEndpointFile(directory)})`,
  );
}

const modelEndpointFile = (directory: string) => join(directory, 'model-server');

const realPath = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/**
 * Why the server does not tick another registered home's background work, or undefined when it
 * does: the home has no appraiser memory, its config cannot be read, or its [model] path is not
 * the GGUF this server holds (that home then loads its own model, on the machine's lease).
 */
async function whyNotTicked(
  localModel: typeof import('@mecha/local-model'),
  home: string,
  servedPath: string,
): Promise<string | undefined> {
  if (!existsSync(join(home, 'appraiser', 'memory.sqlite'))) return 'it has no appraiser memory';
  const config = openHome(home).readConfig();
  if (config._tag === 'Left') {
    return `its config.toml has problems: ${config.left.map(configIssueText).join('; ')}`;
  }
  const path = await localModel.resolveModelPath(config.right.model, {
    configFile: join(home, 'config.toml'),
    download: false,
  });
  if (path.state === 'unreadable') return `its [model] path: ${path.reason}`;
  const real = realPath(path.value);
  if (real !== servedPath) {
    return `its [model] path is ${real}, not the GGUF this server holds (${servedPath}): it loads its own model, on the machine's device lease`;
  }
  return undefined;
}

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
    'pre-empted reports are queued again and resumed at the next tick.',
    '',
    'It ticks the background work of other homes too: each home recorded as using the served',
    'model (`mecha appraiser on --background` there, or any model command of it that used this',
    "server) whose [model] path is this GGUF, in turn with this home's, each under its own",
    'controls and limits. It says once which homes it ticks and why it skips any other.',
    '',
    'It also serves the model to every process on the machine (loopback HTTP; the endpoint and',
    "its token in the file model-server of the device lease's folder, readable by you only):",
    '`mecha distill`, `mecha nightly`, `mecha appraiser run` and `recall --embeddings` of any home',
    'whose [model] path is the same GGUF use it instead of loading their own. One server per',
    'machine: a second is refused, naming the first; a file left by a dead server is replaced.',
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
    // One server per machine: a live one (its endpoint file's pid alive) is named, and nothing
    // is loaded; a file left by a dead server is replaced when this one starts serving.
    const localModel = await import('@mecha/local-model');
    const leaseDirectory = localModel.deviceLeaseDirectory(homePath(context), context.env);
    const running = localModel.readModelEndpoint(leaseDirectory);
    if (running) return alreadyServing(context, path, running, leaseDirectory);
    const made = await appraiserModel(
      context,
      path,
      values,
      gpuAppraiser.reservedTokens(pages),
      true,
    );
    if (typeof made === 'number') return made;
    const { model } = made;
    if (!model) return failure(context, path, 'no local model to serve');
    const controller = new AbortController();
    const stop = () => controller.abort();
    // `on`, not `once`: node-llama-cpp re-raises a signal it sees no other listener for.
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    let closeServer = async () => {};
    try {
      const reserved = await gpuAppraiser.reserveKvPages(model, pages);
      if (reserved._tag === 'Left') return failure(context, path, reserved.left.message);
      const reservation = { state: 'reserved' as const, ...reserved.right };
      const modelServer = await localModel.serveModel({
        scheduler: made.device,
        model,
        modelPath: made.modelPath,
        directory: leaseDirectory,
      });
      if (modelServer._tag === 'Left') {
        const { endpoint } = modelServer.left;
        return endpoint
          ? alreadyServing(context, path, endpoint, leaseDirectory)
          : failure(context, path, modelServer.left.message);
      }
      const endpoint = modelServer.right.endpoint.url;
      closeServer = () => modelServer.right.close();
      const ownHome = realPath(homePath(context));
      const servedPath = modelServer.right.endpoint.modelPath;
      // Each registered home is said once: ticked, or skipped and why (again when that changes).
      const said = new Map<string, string>();
      const say = (home: string, reason: string | undefined) => {
        if (said.get(home) === (reason ?? '')) return;
        said.set(home, reason ?? '');
        if (reason === undefined) {
          line({ ticking: home }, `ticking the background work of ${home} too`);
        } else {
          line({ skipped: home, reason }, `not ticking ${home}: ${reason}`);
        }
      };
      const others = async () => {
        const memories: string[] = [];
        for (const home of servedHomes(leaseDirectory)) {
          if (home === ownHome) continue;
          const reason = await whyNotTicked(localModel, home, servedPath);
          say(home, reason);
          if (reason === undefined) memories.push(join(home, 'appraiser'));
        }
        return memories;
      };
      const result = await gpuAppraiser.serveAppraiser({
        directory,
        model: made.device,
        signal: controller.signal,
        others,
        onSkip: (memory, reason) => say(dirname(memory), reason),
        onServing: () =>
          line(
            { serving: process.pid, endpoint, reservation },
            `serving ${directory} as process ${process.pid}, and the model to this machine at ${endpoint}: ${reservation.pages} key/value pages (${reservation.tokens} tokens) reserved; Ctrl-C stops`,
          ),
        onRun: (report, request, memory) => {
          const home = dirname(memory);
          const whose = memory === directory ? '' : ` of ${home}`;
          line(
            { run: report, request: request ?? null, home },
            [
              request === undefined ? `background tick${whose}` : `run request #${request}`,
              ...runLines(report),
            ].join('\n'),
          );
        },
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
      await closeServer();
      await made.device.dispose();
    }
  },
};
