import { basename, resolve } from 'node:path';
import { type Grade, type GraderIdentity, makeGrade } from '../grade.js';
import type { GradeOptions } from './grader.js';
import { runNodeTest } from './node-test.js';
import {
  loadTypeScript,
  prepareWorkspace,
  readTaskFile,
  removeDir,
  runnablePath,
} from './workspace.js';

/**
 * An "implement a function" task: the folder the model wrote, and a reference test kept
 * outside it that the model never saw. The reference is copied in only at grading time.
 */
export interface HiddenReferenceTask {
  readonly dir: string;
  /** Path of the hidden reference test (absolute, or relative to the working folder). */
  readonly reference: string;
}

/**
 * Runs the hidden reference test against the artefact in a temporary copy: all pass →
 * CORRECT, any failure → WRONG, a reference that declares no test → ABSTAIN (an empty oracle
 * is never a pass).
 */
export async function gradeHiddenReference(
  identity: GraderIdentity,
  task: HiddenReferenceTask,
  options: GradeOptions = {},
): Promise<Grade> {
  const progress = options.onProgress ?? (() => {});
  const referencePath = resolve(task.reference);
  const name = `__hidden__.${basename(referencePath)}`;
  const reference = readTaskFile(
    resolve(referencePath, '..'),
    basename(referencePath),
    'reference test',
  );
  const ts = await loadTypeScript();
  progress('workspace');
  const workspace = prepareWorkspace(ts, task.dir, { [name]: reference });
  try {
    progress('reference');
    const run = await runNodeTest(workspace, runnablePath(name), options.timeoutMs ?? 20_000);
    if (run.tests === 0 && run.status === 'failed') {
      return makeGrade(identity, 'WRONG', 'the reference could not run against the artefact', {
        evidence: [task.dir],
      });
    }
    if (run.tests === 0) {
      return makeGrade(identity, 'ABSTAIN', 'the hidden reference declares no test', {
        evidence: [task.reference],
      });
    }
    if (run.status === 'timeout') {
      return makeGrade(identity, 'WRONG', 'the reference test timed out against the artefact');
    }
    if (run.status === 'failed') {
      return makeGrade(identity, 'WRONG', `${run.failed} of ${run.tests} reference tests fail`, {
        evidence: run.failing.map((test) => `reference: not ok - ${test}`),
      });
    }
    return makeGrade(identity, 'CORRECT', `all ${run.tests} hidden reference tests pass`);
  } finally {
    removeDir(workspace);
  }
}

/** The files the hidden-reference grader's hash covers. */
export const hiddenReferenceGraderSources = [
  'src/graders/hidden-reference-grader.ts',
  'src/graders/node-test.ts',
  'src/graders/workspace.ts',
  // How a task is parsed and a grade is shaped change verdicts too.
  'src/graders/builtin.ts',
  'src/grade.ts',
] as const;
