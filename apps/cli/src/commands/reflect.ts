import { stripControl, stripControlDeep } from '@mecha/appraisal-core';
import type { ReflectResult } from '@mecha/distill';
import {
  type Command,
  type CommandGroup,
  type CommandInput,
  exitCodes,
  failure,
  refused,
  usageError,
} from '../command.js';
import { homePath } from '../home.js';
import { interruptible } from '../interruptible.js';
import { flag, stringOption, wholeNumberOption } from '../parse-command.js';
import { progressBar } from '../progress.js';
import { modelForPass } from './distill.js';

const reflectCommand: Command = {
  path: 'reflect',
  summary: "turn the owner's corrections into lessons, with the local model",
  help: [
    'Usage: mecha reflect [--dry-run] [--limit N] [--json]',
    '       mecha reflect lessons [--all] [--json]',
    '       mecha reflect drop LESSON_ID',
    '       mecha reflect edit LESSON_ID --text TEXT',
    '',
    'Each correction you made in a clean session (a steer and what you said with it, a draft you',
    'rejected with a reason, a task you reopened with a reason) becomes a lesson: one local model',
    'call under a grammar, kept in learning/reflections.jsonl only when it quotes your own words',
    'for that correction. A correction from a session that read third-party content is never',
    'shown to the model. A correction gets one lesson; a second pass calls no model for it.',
    '',
    'Your next message after a run ended (a follow-up) is first judged by the model, under a',
    'grammar: a correction or not, quoting your words. Judged one, it is recorded with its turn',
    '(it signs that run -1.0) and then becomes a lesson like the others.',
    '',
    'What the model declined (a follow-up it judged no correction, a quote not in your words,',
    'nothing to learn) is remembered with the model and the prompt, and not asked again until',
    'either changes; --dry-run lists each as skipped, with why.',
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
    const parsedLimit = wholeNumberOption(values, 'limit');
    if (!parsedLimit.ok) return usageError(context, path, parsedLimit.message);
    const limit = parsedLimit.value;
    const dryRun = flag(values, 'dry-run');
    const asJson = flag(values, 'json');
    const { loadDistillRuntime } = await import('../distill-runtime.js');
    const runtime = await loadDistillRuntime();
    const home = runtime.openHome(homePath(context));
    const passModel = await modelForPass(path, context, home, runtime, dryRun);
    if (typeof passModel === 'number') return passModel;
    const { model, modelIdentity } = passModel;
    const progress = progressBar({
      write: context.stderr,
      isTTY: context.stderrIsTTY,
      label: 'reflecting',
    });
    let result: ReflectResult;
    try {
      result = await interruptible((signal) =>
        runtime.distill.reflect({
          home,
          model,
          dryRun,
          signal,
          ...(limit === undefined ? {} : { limit }),
          ...(modelIdentity === undefined ? {} : { modelIdentity }),
          onProgress: (done, total) => {
            progress.total(total);
            if (done > 0) progress.tick();
          },
        }),
      );
    } finally {
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
    const partial = read.state === 'partial';
    const shown = flag(values, 'all') ? read.records : read.records.filter((l) => !l.dropped);
    if (flag(values, 'json')) {
      const skipped = partial ? read.skipped : [];
      context.stdout(
        `${JSON.stringify(stripControlDeep({ lessons: shown, partial, skipped }), null, 2)}\n`,
      );
      return exitCodes.ok;
    }
    const lines =
      shown.length === 0
        ? ["No lessons on record. 'mecha reflect --dry-run' lists the corrections they come from."]
        : shown.flatMap((lesson) => [
            `${lesson.lessonId}${lesson.dropped ? ' (dropped)' : ''}${lesson.edited === undefined ? '' : ' (edited)'}  ${lesson.at}  ${lesson.lesson.correction} ${lesson.lesson.cite.kind} ${lesson.lesson.cite.id}`,
            `  ${lesson.text}`,
            ...(lesson.edited === undefined
              ? []
              : [
                  `  (you edited it ${lesson.edited.at}; the reflector wrote: ${lesson.lesson.text})`,
                ]),
            `  quoting: "${lesson.lesson.quote}"`,
          ]);
    if (partial) {
      for (const line of read.skipped) {
        lines.push(
          `not read whole: ${line.file}${line.line > 0 ? `:${line.line}` : ''} ${line.reason}`,
        );
      }
      lines.push('(some records could not be read whole: the list may be short)');
    }
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
    if (dropped._tag === 'Left') return failure(context, this.path, dropped.left.message);
    context.stdout(`Dropped ${stripControl(dropped.right.lessonId)}.\n`);
    return exitCodes.ok;
  },
};

const edit: Command = {
  path: 'reflect edit',
  summary: 'edit a lesson: a verdict on the reflector, never on the run',
  help: [
    'Usage: mecha reflect edit LESSON_ID --text TEXT',
    '',
    "Replaces a lesson's text with yours. The reflector's lesson stays on record as it wrote it;",
    'your text is kept beside it in learning/curation-reflections.jsonl, with when you gave it,',
    "and 'mecha reflect lessons' shows yours. The edit is counted in the curation section of",
    "'mecha sessions appraise' as a verdict on the reflector, apart from drops. The run the",
    'correction came from is not touched. A dropped lesson cannot be edited.',
    '',
    'Options:',
    '  --text TEXT     the lesson in your words (up to 2,000 characters)',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: { text: { type: 'string' } },
  async run({ positionals, values, context }: CommandInput) {
    const [id, extra] = positionals;
    if (id === undefined) return usageError(context, this.path, 'name the lesson to edit');
    if (extra !== undefined) return usageError(context, this.path, 'name one lesson');
    const text = stringOption(values, 'text');
    if (text === undefined) return usageError(context, this.path, 'give the new text with --text');
    const { loadDistillRuntime } = await import('../distill-runtime.js');
    const runtime = await loadDistillRuntime();
    const home = runtime.openHome(homePath(context));
    const edited = await runtime.distill.editLesson(home, id, text);
    if (edited._tag === 'Left') {
      return refused(context, this.path, edited.left);
    }
    context.stdout(
      `Edited ${stripControl(edited.right.lessonId)}: ${stripControl(edited.right.text)}\n`,
    );
    return exitCodes.ok;
  },
};

/** `mecha reflect`: @mecha/distill's `reflect`, with the model `mecha distill` loads. */
export const reflectGroup: CommandGroup = {
  name: 'reflect',
  summary: reflectCommand.summary,
  fallback: reflectCommand,
  commands: [lessons, drop, edit],
};
