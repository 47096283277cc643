import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stripControl } from '@mecha/appraisal-core';
import { type EitherLike, isLeft } from '@mecha/errors';
import { generateHome } from '@mecha/fixtures/home';
import { createSessionRecorder, type MechaHome, openHome, type WriteFailure } from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import {
  type Command,
  type CommandGroup,
  exitCodes,
  failure,
  runGroup,
  usageError,
} from '../command.js';
import { demoGraphServer } from '../demo-graph-server.js';
import { stringOption, wholeNumber } from '../parse-command.js';
import { styleFor } from '../style.js';
import { sessionsGroup } from './sessions/index.js';
import { setTask } from './tasks.js';

/** How many sessions the demo distils with its scripted model: enough to fill the review queue. */
const demoDistillLimit = 5;

/**
 * Distils a few of the sample's sessions with the demo's scripted model (said so in the output:
 * the episodes are rule-written, not a language model's) through the real graph server, then
 * shows the review queue that fills, so that a new user sees the review flow end to end.
 */
async function distillWithScript(
  context: CommandContext,
  path: string,
  say: (text?: string) => void,
  style: ReturnType<typeof styleFor>,
): Promise<void> {
  say(
    style.dim(
      `(the demo distils ${demoDistillLimit} sessions with a scripted model: each episode quotes the session's first request and its candidate facts are its capitalised words, written by rule, not by a language model; a real distillation needs [model] path in config.toml)`,
    ),
  );
  const [{ loadDistillRuntime }, { demoDistiller, demoDistillerName }, { runnableGraphServer }] =
    await Promise.all([
      import('../distill-runtime.js'),
      import('../demo-distiller.js'),
      import('../graph-server-path.js'),
    ]);
  const runtime = await loadDistillRuntime();
  const result = await runtime.distill.distill({
    home: runtime.openHome(path),
    model: demoDistiller(),
    modelName: demoDistillerName,
    limit: demoDistillLimit,
    appraise: false,
    score: false,
    env: context.env,
    resolveServer: runnableGraphServer,
  });
  say(
    runtime.distill
      .formatDistillReport(result)
      .map((line) => stripControl(line))
      .join('\n'),
  );
  if (result.state === 'cannot_run' || result.report.stopped !== undefined) {
    say('(the scripted distillation did not complete; the readouts above stand)');
    return;
  }
  say();
  say(style.dim(`$ mecha --home ${path} graph review --limit 5`));
  const { graphGroup } = await import('./graph.js');
  const reviewed = await runGroup(graphGroup, ['review', '--limit', '5'], context);
  if (reviewed !== exitCodes.ok) say('(the review queue could not be read)');
}

/** The file that marks a folder as a demo home, so a second demo may empty it again. */
const marker = '.mecha-demo';
const day = 86_400_000;

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/**
 * The folder the demo generates in: a new temporary one, or `--home DIR` when it is empty, new,
 * or an earlier demo's; an exit code (said on stderr) otherwise.
 */
function demoFolder(context: CommandContext): string | number {
  let path: string;
  if (context.home === undefined) path = mkdtempSync(join(tmpdir(), 'mecha-demo-'));
  else {
    path = resolve(context.cwd, context.home);
    if (existsSync(path) && !existsSync(join(path, marker))) {
      let entries: string[];
      try {
        entries = readdirSync(path);
      } catch {
        return failure(context, 'demo', `${path} is not a folder the demo can use`);
      }
      if (entries.length > 0) {
        return failure(
          context,
          'demo',
          `${path} is not empty and no earlier demo made it: the demo empties its folder, so give it a new or empty one`,
        );
      }
    }
  }
  return path;
}

/**
 * The demo's one closure needs a task whose working sessions are known. It records one more
 * short run the way a harness does (through the session recorder): a run on a new task in a new
 * project, steered once and stopped at its turn ceiling. Closing that task then shows the
 * closure line, the follow-up a cut-short run stages, and the project's reading.
 */
async function recordDemoRun(
  home: MechaHome,
): Promise<{ readonly taskId: string; readonly sessionId: string } | string> {
  const taskId = 'task-demo-q3';
  const projectId = 'proj-demo';
  const put = await home.board.put([
    { v: 1, kind: 'project', id: projectId, title: 'Quarterly figures' },
    {
      v: 1,
      kind: 'task',
      id: taskId,
      title: 'Send the Q3 figures to Lakeside',
      status: 'next',
      project_id: projectId,
    },
  ]);
  if (isLeft(put)) return put.left.message;
  const session = createSessionRecorder(home);
  const started = await session.startRun({
    surface: 'cli',
    personPresent: true,
    goal: { kind: 'task', id: taskId },
    tools: ['fs_read', 'mail_send'],
  });
  if (isLeft(started)) return started.left.message;
  const run = started.right;
  const steps: (() => Promise<EitherLike<WriteFailure, unknown>>)[] = [
    () =>
      run.message({
        turn: 0,
        role: 'owner',
        taint: 'clean',
        text: 'Send Lakeside the Q3 figures.',
      }),
    () => run.message({ turn: 1, role: 'assistant', taint: 'clean', text: 'Reading the ledger.' }),
    () => run.intervention({ turn: 1, kind: 'steer' }),
    () => run.counter('turn_ceiling', 1),
    () => run.end({ stopCause: 'turn_ceiling', turns: 2 }),
  ];
  for (const step of steps) {
    const done = await step();
    if (isLeft(done)) return done.left.message;
  }
  return { taskId, sessionId: session.sessionId };
}

const demo: Command = {
  path: 'demo',
  summary: 'generate a sample home and show every readout on it',
  help: [
    'Usage: mecha demo [--home DIR] [--sessions N] [--seed SEED]',
    '',
    'Generates a sample mecha home (in a new temporary folder, or in DIR) and runs the readers',
    'on it: sessions appraise, health and successes, then closes one task so you see the',
    'closure appraisal. Your own home is never touched: MECHA_HOME is not used here, and DIR',
    'must be empty, new, or a folder an earlier demo made.',
    '',
    'Options:',
    '  --home DIR      where to generate the sample (it is emptied first)',
    '  --sessions N    how many sessions to generate (default 300)',
    '  --seed SEED     the generator seed (default mecha-demo)',
    '',
  ].join('\n'),
  options: { sessions: { type: 'string' }, seed: { type: 'string' } },
  homeMayBeMissing: true,
  takesNoArguments: true,
  async run({ values, context }) {
    let sessions = 300;
    const sessionsText = stringOption(values, 'sessions');
    if (sessionsText !== undefined) {
      const parsed = wholeNumber(sessionsText, '--sessions', 1, 100_000);
      if (isLeft(parsed)) return usageError(context, 'demo', parsed.left.message);
      sessions = parsed.right;
    }
    const seed = stringOption(values, 'seed') ?? 'mecha-demo';
    const path = demoFolder(context);
    if (typeof path === 'number') return path;
    const style = styleFor({ isTTY: context.stdoutIsTTY, env: context.env });
    const now = Date.now();
    // Sessions over the 60 days before the last two, so what became of their drafts and tasks
    // has mostly happened by now.
    const made = generateHome({ path, seed, sessions, start: new Date(now - 62 * day), days: 60 });
    writeFileSync(join(path, marker), 'This folder is a sample home made by `mecha demo`.\n');
    // The sample names no model file it does not have: distilling for real needs one.
    const configFile = join(path, 'config.toml');
    writeFileSync(
      configFile,
      readFileSync(configFile, 'utf8').replace(
        '[model]\npath = "models/appraiser.gguf"\n',
        '# [model]\n# path = "models/appraiser.gguf"   a local GGUF model: mecha distill needs one\n',
      ),
    );
    const say = (text = '') => context.stdout(`${text}\n`);
    say(style.bold(`A sample mecha home, generated in ${path}`));
    say(
      `  ${made.sessions} sessions over two months, ${made.files} files, ${megabytes(made.bytes)}; ${made.tornLines} transcript(s) end in a torn line, as a crash leaves them.`,
    );
    say('  Everything below is derived from those records as it is read; nothing is stored.');
    const child: CommandContext = { ...context, home: path };
    const show = async (words: readonly string[]) => {
      say();
      say(style.dim(`$ mecha --home ${path} sessions ${words.join(' ')}`));
      return runGroup(sessionsGroup, words, child);
    };
    for (const words of [
      ['appraise', '--days', '30'],
      ['health', '--days', '30'],
      ['successes', '-n', '5'],
    ]) {
      const code = await show(words);
      if (code !== exitCodes.ok) return code;
    }
    say();
    const home = openHome(path);
    const recorded = await recordDemoRun(home);
    if (typeof recorded === 'string')
      say(`The demo's own run could not be recorded (${recorded}), so the closure is skipped.`);
    else {
      say(
        style.dim(
          `(a harness records one more run: ${recorded.taskId}, steered once and stopped at its turn ceiling, session ${recorded.sessionId})`,
        ),
      );
      say(
        style.dim(
          `$ mecha --home ${path} tasks set ${recorded.taskId} --status done --session ${recorded.sessionId}`,
        ),
      );
      const code = await setTask(child, home, {
        query: recorded.taskId,
        to: 'done',
        sessionIds: [recorded.sessionId],
      });
      if (code !== exitCodes.ok) say('(the closure did not happen; the readouts above stand)');
    }
    say();
    const graph = await demoGraphServer(path);
    say(
      style.dim(
        graph.state === 'installed'
          ? `(the home's [[mcp]] graph server is mecha-graph-mcp, run as node ${graph.bin})`
          : `(the home's [[mcp]] graph server is mecha-graph-mcp on PATH: ${graph.message})`,
      ),
    );
    say(style.dim(`$ mecha --home ${path} distill --dry-run`));
    const { distillGroup } = await import('./distill.js');
    const distilled = await runGroup(distillGroup, ['--dry-run'], child);
    if (distilled !== exitCodes.ok) say('(the dry run did not complete; the readouts above stand)');
    say();
    await distillWithScript(child, path, say, style);
    say();
    say('Go on from here:');
    say(`  mecha --home ${path} charter`);
    say(`  mecha --home ${path} sessions appraise <session id or prefix>`);
    say(`  mecha --home ${path} sessions appraise --json`);
    say(`  mecha --home ${path} tasks list`);
    say(`  mecha --home ${path} doctor        (finds the torn lines; --repair compacts them)`);
    say(`  mecha --home ${path} graph review     (what the scripted distillation left for review)`);
    say(
      `  mecha --home ${path} distill --dry-run   (set [model] path to distill with a real model)`,
    );
    say(`  mecha --home ${path} web`);
    say();
    say(
      context.home === undefined
        ? `The sample (${megabytes(made.bytes)}) stays in ${path} until you remove it: rm -rf ${path}`
        : `The sample (${megabytes(made.bytes)}) is in ${path}; a later demo with --home ${path} replaces it.`,
    );
    return exitCodes.ok;
  },
};

/** `mecha demo`: a sample home and every readout on it, in seconds. */
export const demoGroup: CommandGroup = {
  name: 'demo',
  summary: 'generate a sample home and show every readout on it',
  fallback: demo,
  commands: [],
};
