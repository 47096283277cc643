import { basename, join } from 'node:path';
import { type Grade, type GraderIdentity, makeGrade } from '../grade.js';
import { findEscapeHatches } from './escape-hatches.js';
import type { GradeOptions } from './grader.js';
import { listFiles, loadTypeScript, readTaskFile } from './workspace.js';

/** A "fix the type error" task: the folder after the fix, and the files the model edited. */
export interface TypecheckTask {
  readonly dir: string;
  readonly edited: readonly string[];
}

const typescriptFile = /\.(m|c)?tsx?$/;

/**
 * Grades a type fix. First the mute buttons, on the syntax tree of every edited file: `any`,
 * `as unknown as`, `@ts-ignore`, `@ts-expect-error`, `@ts-nocheck`, or any edit to a tsconfig
 * or a `.d.ts` file → UNSOUND. Then a strict check of every TypeScript file in the folder under
 * options the grader owns (the folder's tsconfig is never read): errors → WRONG, clean → CORRECT.
 */
export async function gradeTypecheck(
  identity: GraderIdentity,
  task: TypecheckTask,
  options: GradeOptions = {},
): Promise<Grade> {
  const progress = options.onProgress ?? (() => {});
  const ts = await loadTypeScript();
  progress('escape hatches');
  const configEdits = task.edited.filter(
    (file) => /^tsconfig.*\.json$/.test(basename(file)) || /\.d\.(m|c)?ts$/.test(file),
  );
  if (configEdits.length > 0) {
    return makeGrade(identity, 'UNSOUND', 'the fix edits the type configuration', {
      evidence: configEdits.map((file) => `${file}: edited`),
    });
  }
  const hatches: string[] = [];
  for (const file of task.edited.filter((name) => typescriptFile.test(name))) {
    const text = readTaskFile(task.dir, file, 'edited file');
    const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    for (const hatch of findEscapeHatches(ts, sourceFile)) {
      hatches.push(`${file}:${hatch.line}:${hatch.column} ${hatch.kind}`);
    }
  }
  if (hatches.length > 0) {
    return makeGrade(identity, 'UNSOUND', 'the fix mutes the type checker', { evidence: hatches });
  }

  progress('tsc --strict');
  const files = listFiles(task.dir).filter((file) => typescriptFile.test(file));
  if (files.length === 0) {
    return makeGrade(identity, 'ABSTAIN', 'there is no TypeScript file to check', {
      evidence: [task.dir],
    });
  }
  const program = ts.createProgram(
    files.map((file) => join(task.dir, file)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      noUncheckedIndexedAccess: true,
      types: [],
      lib: ['lib.es2023.d.ts'],
    },
  );
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) {
    const evidence = diagnostics.slice(0, 50).map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
      if (diagnostic.file === undefined || diagnostic.start === undefined) {
        return `TS${diagnostic.code} ${message}`;
      }
      const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      const file = diagnostic.file.fileName.startsWith(task.dir)
        ? diagnostic.file.fileName.slice(task.dir.length + 1)
        : diagnostic.file.fileName;
      return `${file}:${line + 1}:${character + 1} TS${diagnostic.code} ${message}`;
    });
    return makeGrade(
      identity,
      'WRONG',
      `${diagnostics.length} type error${diagnostics.length === 1 ? '' : 's'} under --strict`,
      { evidence },
    );
  }
  return makeGrade(
    identity,
    'CORRECT',
    `${files.length} file(s) clean under --strict, no mute buttons`,
    {
      evidence: files,
    },
  );
}

/** The files the typecheck grader's hash covers. */
export const typecheckGraderSources = [
  'src/graders/typecheck-grader.ts',
  'src/graders/escape-hatches.ts',
  'src/graders/workspace.ts',
  // How a task is parsed and a grade is shaped change verdicts too.
  'src/graders/builtin.ts',
  'src/grade.ts',
] as const;
