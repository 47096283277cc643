import { stripControl, stripControlDeep } from '@mecha/appraisal-core';
import type { ModelSource, ReflectResult } from '@mecha/distill';
import {
  type Command,
  type CommandGroup,
  type CommandInput,
  exitCodes,
  failure,
  usageError,
} from '../command.js';
import { homePath } from '../home.js';
import { flag, stringOption, wholeNumber } from '../parse-command.js';
import { progressBar } from '../progress.js';
import { localModelSource } from './distill.js';

const reflectCommand: Command = {
  path: 'reflect',
  summary: "turn the owner's corrections into lessons, with the local model",
  help: [
    'Usage: mecha reflect [--dry-run] [--limit N] [--json]',
    '       mecha reflect lessons [--all] [--json]',
    '       mecha reflect drop LESSON_ID',
    '',
    'Each correction you made in a clean session (a steer and what you said with it, a draft you',
    'rejected with a reason, a task you reopened with a reason) becomes a lesson: one local model',
    'call under a grammar, kept in learning/reflections.jsonl only when it quotes your own words',
    'for that correction. A correction from a session that read third-party content is never',
    'shown to the model. A correction gets one lesson; a second pass calls no model for it.',
    '',
    'With [agent] contrast_evidence = true in config.toml, each correction is also shown one',
    'success you verified in the same workspace, surface and goal, from another clean session',
    'that had every tool the correction was about: its act in fixed words and its call order.',
    '',
    'Options:',
    '  --dry-run       list each correction and the success it would be shown: no model, no writes',
    '  --limit N       reflect on no more than N corrections, oldest first',
    '  --json          the report as JSON',
    '  --home DIR      the mecha home',
    '',
    'The model is [model] path in config.toml, as for mecha distill. mecha nightly runs reflect',
    'before it distils.',
    '',
  ].join('\n'),
  options: {
    'dry-run': { type: 'boolean' },
    limit: { type: 'string' },
    json: { type: 'boolean' },
  },
  takesNoArguments: true,
  async run({ values, context }: CommandInput) {
    const path = this.path;
    let limit: number | undefined;
    const limitText = stringOption(values, 'limit');
    if (limitText !== undefined) {
      const parsed = wholeNumber(limitText, '--limit');
      if (!parsed.ok) return usageError(context, path, parsed.message);
      limit = parsed.value;
    }
    const dryRun = flag(values, 'dry-run');
    const asJson = flag(values, 'json');
    const { loadDistillRuntime } = await import('../distill-runtime.js');
    const runtime = await loadDistillRuntime();
    const home = runtime.openHome(homePath(context));
    let model: ModelSource = () => Promise.reject(new Error('a dry run needs no model'));
    if (!dryRun) {
      const made = await localModelSource(path, context, home, runtime);
      if (typeof made === 'number') return made;
      model = made;
    }
    const progress = progressBar({
      write: context.stderr,
      isTTY: context.stderrIsTTY,
      label: 'reflecting',
    });
    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once('SIGINT', interrupt);
    let result: ReflectResult;
    try {
      result = await runtime.distill.reflect({
        home,
        model,
        dryRun,
        signal: controller.signal,
        ...(limit === undefined ? {} : { limit }),
        onProgress: (done, total) => {
          progress.total(total);
          if (done > 0) progress.tick();
        },
      });
    } finally {
      process.removeListener('SIGINT', interrupt);
      progress.done();
    }
    if (result.state === 'cannot_run') {
      if (asJson) {
        context.stdout(`${JSON.stringify(stripControlDeep(result), null, 2)}\n`);
        return exitCodes.failure;
      }
      return failure(context, path, result.message);
    }
    if (asJson) context.stdout(`${JSON.stringify(stripControlDeep(result.report), null, 2)}\n`);
    else context.stdout(`${runtime.distill.formatReflectReport(result.report).join('\n')}\n`);
    return result.report.stopped === undefined ? exitCodes.ok : exitCodes.failure;
  },
};

const lessons: Command = {
  path: 'reflect lessons',
  summary: 'the lessons reflect wrote, newest first',
  help: [
    'Usage: mecha reflect lessons [--all] [--json]',
    '',
    "The lessons on record, newest first: each with the correction it came from and the owner's",
    'words it quotes. Dropped lessons are left out unless --all.',
    '',
    'Options:',
    '  --all           include the lessons you dropped, marked so',
    '  --json          the lessons as JSON',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: { all: { type: 'boolean' }, json: { type: 'boolean' } },
  takesNoArguments: true,
  async run({ values, context }: CommandInput) {
    const { loadDistillRuntime } = await import('../distill-runtime.js');
    const runtime = await loadDistillRuntime();
    const read = await runtime.distill.lessonsOnRecord(runtime.openHome(homePath(context)));
    if (read.state === 'unreadable') {
      return failure(context, this.path, `the lessons could not be read: ${read.reason}`);
    }
    const shown = flag(values, 'all') ? read.lessons : read.lessons.filter((l) => !l.dropped);
    if (flag(values, 'json')) {
      context.stdout(
        `${JSON.stringify(stripControlDeep({ lessons: shown, partial: read.partial }), null, 2)}\n`,
      );
      return exitCodes.ok;
    }
    const lines =
      shown.length === 0
        ? ["No lessons on record. 'mecha reflect --dry-run' lists the corrections they come from."]
        : shown.flatMap((lesson) => [
            `${lesson.lessonId}${lesson.dropped ? ' (dropped)' : ''}  ${lesson.at}  ${lesson.lesson.correction} ${lesson.lesson.cite.kind} ${lesson.lesson.cite.id}`,
            `  ${lesson.lesson.text}`,
            `  quoting: "${lesson.lesson.quote}"`,
          ]);
    if (read.partial) lines.push('(some records could not be read whole: the list may be short)');
    context.stdout(`${lines.map((line) => stripControl(line)).join('\n')}\n`);
    return exitCodes.ok;
  },
};

const drop: Command = {
  path: 'reflect drop',
  summary: 'drop a lesson: a verdict on the reflector, never on the run',
  help: [
    'Usage: mecha reflect drop LESSON_ID',
    '',
    'Drops a lesson: it stays on record, marked dropped, and the drop is counted in the curation',
    "section of 'mecha sessions appraise' as a verdict on the reflector. The run the correction",
    'came from is not touched.',
    '',
  ].join('\n'),
  options: {},
  async run({ positionals, context }: CommandInput) {
    const [id, extra] = positionals;
    if (id === undefined) return usageError(context, this.path, 'name the lesson to drop');
    if (extra !== undefined) return usageError(context, this.path, 'name one lesson');
    const { loadDistillRuntime } = await import('../distill-runtime.js');
    const runtime = await loadDistillRuntime();
    const dropped = await runtime.distill.dropLesson(runtime.openHome(homePath(context)), id);
    if (dropped.state === 'refused') return failure(context, this.path, dropped.message);
    context.stdout(`Dropped ${stripControl(dropped.lessonId)}.\n`);
    return exitCodes.ok;
  },
};

/** `mecha reflect`: @mecha/distill's `reflect`, with the model `mecha distill` loads. */
export const reflectGroup: CommandGroup = {
  name: 'reflect',
  summary: reflectCommand.summary,
  fallback: reflectCommand,
  commands: [lessons, drop],
};
