import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { type Grade, type GraderIdentity, makeGrade } from '../grade.js';
import type { GradeOptions } from './grader.js';
import { applyMutant, describeMutant, findMutants, type Mutant, sourceChecker } from './mutants.js';
import { runNodeTest, type TestRun } from './node-test.js';
import {
  loadTypeScript,
  prepareWorkspace,
  readTaskFile,
  removeDir,
  runnablePath,
  sweepOrphans,
  transpile,
} from './workspace.js';

/** A "write a test" task: a folder, the true source in it and the test the model wrote. */
export interface MutationTask {
  readonly dir: string;
  readonly source: string;
  readonly test: string;
}

/** What happened to one mutant. */
export type MutantFate = 'killed' | 'survived' | 'invalid';

/** Below this many valid mutants a single kill is not called thin. */
const thinFloor = 3;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Grades a test by mutation: it must pass on the true source and fail on at least one
 * mutant. Mutants are AST edits type-checked before they run; each runs in a temporary copy,
 * never in the task's folder, so the real source is only ever read.
 */
export async function gradeByMutation(
  identity: GraderIdentity,
  task: MutationTask,
  options: GradeOptions = {},
): Promise<Grade> {
  const progress = options.onProgress ?? (() => {});
  const timeoutMs = options.timeoutMs ?? 20_000;
  const concurrency = Math.max(1, options.concurrency ?? availableParallelism());
  const text = readTaskFile(task.dir, task.source, 'source');
  readTaskFile(task.dir, task.test, 'test');
  const before = sha256(text);
  sweepOrphans();
  const ts = await loadTypeScript();

  progress('mutants');
  const checker = sourceChecker(ts, join(task.dir, task.source), text);
  const program = checker.program(text);
  const sourceFile = program.getSourceFile(checker.target);
  const all: Mutant[] =
    sourceFile === undefined ? [] : findMutants(ts, sourceFile, program.getTypeChecker());
  const baselineErrors = checker.errors(text);
  const valid = all.filter((mutant) => checker.errors(applyMutant(text, mutant)) <= baselineErrors);
  const invalid = all.length - valid.length;

  progress('baseline');
  const workspace = prepareWorkspace(ts, task.dir);
  const slots: string[] = [workspace];
  try {
    const testFile = runnablePath(task.test);
    const baseline = await runNodeTest(workspace, testFile, timeoutMs);
    if (baseline.tests === 0) {
      const why =
        baseline.status === 'passed' ? 'declares no tests' : 'could not run on the true source';
      return makeGrade(identity, 'WRONG', `the test file ${why}`, {
        evidence: [task.test],
      });
    }
    if (baseline.status !== 'passed') {
      return makeGrade(
        identity,
        'WRONG',
        baseline.status === 'timeout'
          ? `the test timed out on the true source (${timeoutMs} ms)`
          : 'the test fails on the true source',
        { evidence: baseline.failing.map((name) => `${task.test}: not ok - ${name}`) },
      );
    }
    if (all.length === 0) {
      return makeGrade(identity, 'ABSTAIN', `nothing to mutate in ${task.source}`, {
        evidence: [task.source],
      });
    }
    if (valid.length === 0) {
      return makeGrade(
        identity,
        'ABSTAIN',
        `every one of the ${all.length} mutants of ${task.source} fails to compile`,
        { evidence: all.map((mutant) => `invalid: ${describeMutant(task.source, mutant)}`) },
      );
    }

    for (let slot = 1; slot < Math.min(concurrency, valid.length); slot += 1) {
      slots.push(prepareWorkspace(ts, task.dir));
    }
    const target = runnablePath(task.source);
    const fates = new Map<number, MutantFate>();
    const runMutant = async (slot: string, mutant: Mutant): Promise<MutantFate> => {
      writeFileSync(join(slot, target), transpile(ts, applyMutant(text, mutant), task.source));
      return fateOfRuns(() => runNodeTest(slot, testFile, timeoutMs));
    };
    let next = 0;
    await Promise.all(
      slots.map(async (slot) => {
        const original = transpile(ts, text, task.source);
        while (next < valid.length) {
          const mutant = valid[next] as Mutant;
          next += 1;
          progress(`mutant ${mutant.id}`);
          fates.set(mutant.id, await runMutant(slot, mutant));
        }
        writeFileSync(join(slot, target), original);
      }),
    );

    const killed = valid.filter((mutant) => fates.get(mutant.id) === 'killed');
    const survived = valid.filter((mutant) => fates.get(mutant.id) === 'survived');
    const evidence = [
      ...killed.map((mutant) => `killed: ${describeMutant(task.source, mutant)}`),
      ...survived.map((mutant) => `survived: ${describeMutant(task.source, mutant)}`),
    ];
    const counts = `${killed.length} of ${valid.length} mutants killed${invalid > 0 ? `, ${invalid} skipped as invalid` : ''}`;
    if (readTaskFileHash(task) !== before) {
      return makeGrade(identity, 'ABSTAIN', 'the source changed while it was graded', {
        evidence: [task.source],
      });
    }
    if (killed.length === 0) {
      return makeGrade(identity, 'UNSOUND', `the test kills no mutant (${counts})`, { evidence });
    }
    const thin = killed.length === 1 && valid.length >= thinFloor;
    return makeGrade(identity, 'CORRECT', `the test pins behaviour: ${counts}`, {
      evidence,
      notes: thin ? [`thin coverage: only 1 of ${valid.length} mutants killed`] : [],
    });
  } finally {
    progress('clean-up');
    for (const slot of slots) removeDir(slot);
  }
}

/**
 * A mutant's fate from running the test on it: a failure kills it, and a timeout kills it only
 * when the second run times out too (one slow run on a loaded machine is not a kill).
 */
export async function fateOfRuns(
  run: () => Promise<TestRun>,
): Promise<Exclude<MutantFate, 'invalid'>> {
  let outcome = await run();
  if (outcome.status === 'timeout') outcome = await run();
  return outcome.status === 'passed' ? 'survived' : 'killed';
}

function readTaskFileHash(task: MutationTask): string {
  return sha256(readTaskFile(resolve(task.dir), task.source, 'source'));
}

/** The files the mutation grader's hash covers. */
export const mutationGraderSources = [
  'src/graders/mutation-grader.ts',
  'src/graders/mutants.ts',
  'src/graders/node-test.ts',
  'src/graders/workspace.ts',
  // How a task is parsed and a grade is shaped change verdicts too.
  'src/graders/builtin.ts',
  'src/grade.ts',
] as const;
