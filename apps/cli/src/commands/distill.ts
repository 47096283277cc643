import { join } from 'node:path';
import { stripControl, stripControlDeep } from '@mecha/appraisal-core';
import type { DistillProgress, DistillResult, ModelSource, ReflectResult } from '@mecha/distill';
import { isLeft } from '@mecha/errors';
import type { CompletionModel } from '@mecha/local-model';
import { configIssueText, type MechaHome } from '@mecha/stores';
import {
  type Command,
  type CommandGroup,
  type CommandInput,
  exitCodes,
  failure,
  usageError,
} from '../command.js';
import type { DistillRuntime } from '../distill-runtime.js';
import { runnableGraphServer } from '../graph-server-path.js';
import { homePath } from '../home.js';
import { interruptible } from '../interruptible.js';
import { modelFetchPrinter } from '../model-fetch-progress.js';
import { flag, stringOption, wholeNumberOption } from '../parse-command.js';
import { progressBar } from '../progress.js';
import { servedModel } from '../served-model.js';

/** The context window the distiller's model is created with (prompt and reply together). */
export const distillContextSize = 16_384;

/** What to print when `[model] path` is missing or wrong: the key, the file and an example. */
export function modelHowTo(configFile: string, problem: string, path = 'distill'): string {
  return [
    `mecha ${path}: ${problem}`,
    '',
    `${path === 'reflect' ? 'Reflecting' : 'Distilling'} needs a local GGUF model. Set [model] path in ${configFile}, for example:`,
    '',
    '  [model]',
    '  path = "models/qwen2.5-3b-instruct-q4_k_m.gguf"',
    '',
    'A relative path is read from the home folder, ~ from your home. A model URI works too',
    '(path = "hf:<user>/<repo>:<quant>" or an https:// URL of a GGUF): it is fetched once into',
    `models/ in the home. \`mecha ${path === 'reflect' ? 'reflect' : 'distill'} --dry-run\` works without a model.`,
    '',
  ].join('\n');
}

function modelProblem(problem: string): string {
  switch (problem) {
    case 'missing':
      return 'no model is configured ([model] path is not set)';
    case 'not_found':
      return 'the model file that [model] path names does not exist';
    case 'not_a_file':
      return '[model] path names a folder, not a GGUF file';
    case 'invalid_uri':
      return '[model] path is a model URI mecha cannot fetch (use hf:<user>/<repo>:<quant>, hf:<user>/<repo>/<file>.gguf or an https:// URL)';
    default:
      return '[model] path is not a file path';
  }
}

const distill: Command = {
  path: 'distill',
  summary: 'carry finished sessions into long-term memory',
  help: [
    'Usage: mecha distill [--dry-run] [--limit N] [--session ID] [--server NAME] [--json]',
    '',
    'Distils every finished session not yet distilled into one episode in the knowledge graph',
    '(through the [[mcp]] server of config.toml) and keeps a text appraisal of it. One local',
    'model call per session, under a grammar; the ledger marks what is done, so a second run',
    'does nothing new. Ctrl-C stops between steps and leaves the ledger consistent.',
    '',
    'Options:',
    '  --dry-run       say what would be distilled: no model, no server, nothing written',
    '  --limit N       look at no more than N sessions, oldest first',
    '  --session ID    only this session (what a session_end hook runs)',
    "  --server NAME   the [[mcp]] server holding the graph (default 'graph')",
    '  --json          the report as JSON',
    '  --home DIR      the mecha home',
    '',
    'The model is [model] path in config.toml (a GGUF file, ideally a small instruct model: its',
    'own chat template is used; or a model URI, hf:<user>/<repo>:<quant> or an https:// URL,',
    'fetched once into models/ in the home); [model] threads, gpu_layers and context_size say how',
    'it loads (context_size is capped at what the model supports, with a warning). Each pushed',
    "episode's candidate facts are extracted by the model too, for the graph's review queue.",
    'A failure that repeats (prompt too long, reply over budget) is given up after 3 tries.',
    '',
  ].join('\n'),
  options: {
    'dry-run': { type: 'boolean' },
    limit: { type: 'string' },
    session: { type: 'string' },
    server: { type: 'string' },
    json: { type: 'boolean' },
  },
  takesNoArguments: true,
  run(input) {
    return runDistill(this.path, input, 'distill');
  },
};

/**
 * `mecha distill` and `mecha nightly`: parse, load the model from `[model]`, run @mecha/distill's
 * `distill` (or `nightly`, the same under the home's nightly lock), and render the report.
 */
export async function runDistill(
  path: string,
  { values, context }: CommandInput,
  mode: 'distill' | 'nightly',
): Promise<number> {
  {
    const parsedLimit = wholeNumberOption(values, 'limit');
    if (isLeft(parsedLimit)) return usageError(context, path, parsedLimit.left.message);
    const limit = parsedLimit.right;
    const server = stringOption(values, 'server');
    if (server === '') return usageError(context, path, '--server needs a name');
    const session = stringOption(values, 'session');
    if (session === '') return usageError(context, path, '--session needs a session id');
    const dryRun = flag(values, 'dry-run');
    const asJson = flag(values, 'json');
    // Loaded here only: @mecha/distill brings the MCP client, local-model the model runtime.
    const { loadDistillRuntime } = await import('../distill-runtime.js');
    let runtime: Awaited<ReturnType<typeof loadDistillRuntime>>;
    try {
      runtime = await loadDistillRuntime();
    } catch (error) {
      return failure(
        context,
        path,
        `@mecha/distill could not be loaded (${stripControl(error instanceof Error ? error.message : String(error))})`,
      );
    }
    const distillModule = runtime.distill;
    const home = runtime.openHome(homePath(context));
    const passModel = await modelForPass(path, context, home, runtime, dryRun);
    if (typeof passModel === 'number') return passModel;
    const { model, modelIdentity } = passModel;

    const progress = progressBar({
      write: context.stderr,
      isTTY: context.stderrIsTTY,
      label: dryRun ? 'looking' : 'distilling',
    });
    let ran: { result: DistillResult; reflected?: ReflectResult | undefined } | number;
    try {
      ran = await interruptible(async (signal) => {
        const options = {
          home,
          model,
          dryRun,
          signal,
          env: context.env,
          resolveServer: runnableGraphServer,
          ...(server === undefined ? {} : { server }),
          ...(limit === undefined ? {} : { limit }),
          ...(session === undefined ? {} : { sessions: [session] }),
          onProgress: (step: DistillProgress) => {
            progress.total(step.total);
            if (step.step === 'finished') progress.tick();
          },
        };
        if (mode === 'nightly') {
          // Whether a decline on record was this model's is read from the file: no load.
          const nightly = await distillModule.nightly({
            ...options,
            ...(modelIdentity === undefined ? {} : { modelIdentity }),
          });
          if (nightly.state === 'busy') {
            if (asJson) context.stdout(`${JSON.stringify(nightly)}\n`);
            else context.stderr(`mecha ${path}: ${stripControl(nightly.message)}\n`);
            return exitCodes.failure;
          }
          return { result: nightly, reflected: nightly.reflected };
        }
        return { result: await distillModule.distill(options) };
      });
    } finally {
      progress.done();
    }
    if (typeof ran === 'number') return ran;
    const { result, reflected } = ran;

    if (asJson) {
      context.stdout(`${JSON.stringify(stripControlDeep(result), null, 2)}\n`);
    } else {
      // The nightly pass reflects first: its lines come before distill's.
      if (reflected !== undefined) {
        context.stdout(
          reflected.state === 'ran'
            ? `reflect: ${distillModule.formatReflectReport(reflected.report).join('\n')}\n`
            : `reflect: ${stripControl(reflected.message)}\n`,
        );
      }
      const lines = distillModule.formatDistillReport(result).map((line) => stripControl(line));
      const out = result.state === 'cannot_run' ? context.stderr : context.stdout;
      out(`${result.state === 'cannot_run' ? `mecha ${path}: ` : ''}${lines.join('\n')}\n`);
    }
    if (result.state === 'cannot_run') return exitCodes.failure;
    // The report already says why a run stopped early (Ctrl-C, no graph, no model).
    return result.report.stopped === undefined ? exitCodes.ok : exitCodes.failure;
  }
}

/**
 * A way to make the configured local model, with its identity read from the file's digest
 * without loading it (`sha256:<digest>`, as a lesson's `reflected_by` names it).
 */
/**
 * The model a distill or reflect pass calls: none on a dry run, else the home's local model (or
 * the exit code after saying what is wrong), with its identity: whether a decline on record was
 * this model's is read from the file's digest, with no load.
 */
export async function modelForPass(
  path: string,
  context: CommandInput['context'],
  home: MechaHome,
  runtime: DistillRuntime,
  dryRun: boolean,
): Promise<{ model: ModelSource; modelIdentity?: () => Promise<string> } | number> {
  if (dryRun) return { model: () => Promise.reject(new Error('a dry run needs no model')) };
  const made = await localModelSource(path, context, home, runtime);
  if (typeof made === 'number') return made;
  return { model: made, modelIdentity: made.identity };
}

export type LocalModelSource = (() => Promise<CompletionModel>) & {
  readonly identity: () => Promise<string>;
};

/**
 * The local model `[model]` in config.toml names, made when the first call needs it and used as
 * foreground work on the machine's device lease; or the exit code after saying what is wrong
 * (a config that does not parse, no model configured, a file that is not there).
 */
export async function localModelSource(
  path: string,
  context: CommandInput['context'],
  home: MechaHome,
  runtime: DistillRuntime,
): Promise<LocalModelSource | number> {
  const configFile = join(home.path, 'config.toml');
  const config = home.readConfig();
  if (config._tag === 'Left') {
    return failure(
      context,
      path,
      `config.toml has problems: ${config.left.map(configIssueText).join('; ')}`,
    );
  }
  const localModel = await runtime.loadLocalModel();
  const modelPath = await localModel.resolveModelPath(config.right.model, {
    configFile,
    onFetch: modelFetchPrinter({
      write: context.stderr,
      isTTY: context.stderrIsTTY,
      label: `mecha ${path}`,
    }),
  });
  if (modelPath.state === 'unreadable') {
    const problem =
      modelPath.error.problem === 'fetch_failed'
        ? stripControl(modelPath.error.message)
        : modelProblem(modelPath.error.problem);
    context.stderr(modelHowTo(configFile, problem, path));
    return exitCodes.failure;
  }
  const settings = localModel.resolveModelSettings(config.right.model);
  if (settings.state === 'unreadable') return failure(context, path, settings.reason);
  // [model] context_size wins (capped at what the model supports, with a warning);
  // otherwise the distiller asks for 16,384 tokens, quietly capped likewise (transcripts are
  // bounded in the model's own tokens to whatever the context turns out to be).
  const options = {
    path: modelPath.value,
    defaultContextSize: distillContextSize,
    ...settings.value,
  };
  const leaseDirectory = localModel.deviceLeaseDirectory(home.path, context.env);
  const make = async (): Promise<CompletionModel> => {
    // One model per machine: while `mecha appraiser serve` holds the same GGUF, use it (as
    // foreground work: it pre-empts the server's background appraisal) and load nothing here.
    const served = await servedModel(localModel, context, path, {
      home: home.path,
      leaseDirectory,
      modelPath: options.path,
    });
    if (served) return served.at('foreground');
    const created = localModel.createLocalModel(options);
    const info = await created.load();
    for (const warning of info.warnings) context.stderr(`mecha ${path}: warning: ${warning}\n`);
    // Foreground work on the machine's device lease: a background appraisal in another
    // process yields the device to it at its next token (docs/appraiser.md).
    const device = localModel.createDeviceScheduler(created, {
      lease: localModel.openDeviceLease({ directory: leaseDirectory }),
    });
    return { ...device.at('foreground'), dispose: () => device.dispose() };
  };
  const identity = async () => `sha256:${(await localModel.modelIdentity(options.path)).sha256}`;
  return Object.assign(make, { identity });
}

/** `mecha distill`: @mecha/distill's use-case, loaded only when this command runs. */
export const distillGroup: CommandGroup = {
  name: 'distill',
  summary: 'carry finished sessions into long-term memory',
  fallback: distill,
  commands: [],
};
