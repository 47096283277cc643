import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Grade } from '@mecha/grader-verdicts';
import { type Command, usageError } from '../../command.js';
import { flag } from '../../parse-command.js';
import { guarded, json, verdictsModule } from './shared.js';

function renderGrade(grade: Grade): string {
  return [
    `${grade.verdict} — ${grade.reason}`,
    ...grade.notes.map((note) => `  note: ${note}`),
    ...grade.evidence.map((line) => `  ${line}`),
    `  grader ${grade.grader.id} ${grade.grader.hash.slice(0, 12)}`,
  ].join('\n');
}

export const grade: Command = {
  path: 'verdicts grade',
  summary: 'grade one task; the exit code is the verdict (0–3)',
  help: [
    'Usage: mecha verdicts grade <grader> <task.json> [--json]',
    '',
    'Grades one task with a registered grader. The task file is JSON; its paths are relative',
    'to the task file:',
    '  mutation          {"dir": ".", "source": "clamp.ts", "test": "clamp.test.ts"}',
    '  typecheck         {"dir": ".", "edited": ["length.ts"]}',
    '  hidden-reference  {"dir": "artefact", "reference": "../hidden/ref.test.ts"}',
    'Tests are node:test files; TypeScript is transpiled in a temporary copy (import siblings',
    "as './name.js'). The task's own files are only read.",
    '',
    'Options:',
    '  --json          the grade as JSON',
    '',
    'Exit codes are the verdict: 0 CORRECT, 1 WRONG, 2 UNSOUND, 3 ABSTAIN. A usage error also',
    'exits 2 but prints nothing on stdout; a task that cannot be read exits 1 with a message on',
    'stderr.',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  // Grading reads task folders and banks, never a mecha home.
  homeMayBeMissing: true,
  async run({ values, positionals, context }) {
    const [grader, taskFile, extra] = positionals;
    if (grader === undefined || taskFile === undefined) {
      return usageError(context, this.path, 'name a grader and a task file');
    }
    if (extra !== undefined)
      return usageError(context, this.path, `unexpected argument '${extra}'`);
    return guarded(context, this.path, async () => {
      const { gradeTask, verdictCode, GraderInputError } = await verdictsModule();
      const path = resolve(context.cwd, taskFile);
      let task: unknown;
      try {
        task = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new GraderInputError(path, `the task file ${path} is not readable JSON`, {
          cause: error,
        });
      }
      const result = await gradeTask(grader, task, dirname(path));
      if (flag(values, 'json')) json(context, result);
      else context.stdout(`${renderGrade(result)}\n`);
      return verdictCode(result.verdict);
    });
  },
};
