import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { type Grade, type GraderIdentity, makeGrade } from '../grade.js';
import { compilingMutants, sourceChecker } from './compiling-mutants.js';
import type { GradeOptions } from './grader.js';
import { switchMutants } from './mutant-switch.js';
import { applyMutant, describeMutant, findMutants, type Mutant, mutantUnits } from './mutants.js';
import { runNodeTest, type TestRun } from './node-test.js';
import { installWarmScripts, type WarmRequest, type WarmRun, WarmWorker } from './warm-pool.js';
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
 * How long a mutant's run may take, from the baseline's time on the true source: the factor
 * covers a mutant that legitimately does more work (an off-by-one loop, a slower branch), the
 * constant covers a loaded machine's stalls. Measured here (2026-12-03, two shared cores, load
 * average 20–35, the bank's clamp test): 300 warm runs took 4.4 ms at the median, 207 ms at the
 * 99th percentile and 342 ms at most; 20 `node --test` processes 698 ms at the median and 851 ms
 * at most. The constants are several times those worst cases (Stryker's default is 1.5 × + 5 s),
 * and a timeout is confirmed once more before it kills. Loops that never end are caught sooner by
 * the hit counter; the limit is for what the counter cannot see (a promise that never settles, a
 * timer loop).
 */
const warmTimeFactor = 3;
const warmTimeConstantMs = 2_000;
const processTimeFactor = 3;
const processTimeConstantMs = 2_500;

/**
 * The loop guard's bound from the baseline's hits (loop iterations and function entries, per
 * test in a warm worker, per run in a process): ten times leaves room for a mutant that loops
 * longer and still ends; the floor keeps a test with few hits from tripping on a small change,
 * and a hundred thousand hits cost a few milliseconds.
 */
export function guardBound(baselineHits: number): number {
  return 10 * baselineHits + 100_000;
}

/**
 * How long a mutant's run may take in a warm runner, from the baseline's time for the tests it
 * runs (load included): the warm engine's rule, shared with the vitest runner of the mutation
 * script (`npm run mutation -- --grader mecha`).
 */
export function warmTimeLimitMs(baselineMs: number): number {
  return warmTimeFactor * baselineMs + warmTimeConstantMs;
}

/** Runs one mutant's tests; resolves its fate (a timeout counts only when confirmed). */
type MutantRunner = (mutant: Mutant) => Promise<Exclude<MutantFate, 'invalid'>>;

/** An engine that runs mutants, and what to do when grading ends. */
interface Engine {
  readonly name: 'warm' | 'process' | 'copy';
  readonly run: MutantRunner;
  readonly stop: () => void;
}

/**
 * Grades a test by mutation: it must pass on the true source and fail on at least one
 * mutant. Mutants are AST edits type-checked before they run (in groups, see
 * `compilingMutants`), then switched into one instrumented module run in a temporary copy,
 * never in the task's folder, so the real source is only ever read. The tests run in warm
 * workers (one per core) that only run, for each mutant, the tests that reach it; where the
 * test file needs more of `node:test` than the workers offer, each mutant runs in its own
 * `node --test` process instead, and where even the instrumented module does not pass, each
 * mutant is written out alone as before.
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
  const compiling =
    sourceFile === undefined
      ? []
      : compilingMutants(checker, text, all, mutantUnits(ts, sourceFile));
  const switched = sourceFile === undefined ? undefined : switchMutants(ts, sourceFile, compiling);
  const unswitchable = new Set(switched?.unswitchable ?? []);
  const valid = compiling.filter((mutant) => !unswitchable.has(mutant.id));
  const invalid = all.length - compiling.length;

  progress('baseline');
  const workspace = prepareWorkspace(ts, task.dir);
  const slots: string[] = [workspace];
  let engine: Engine | undefined;
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

    const target = runnablePath(task.source);
    const original = transpile(ts, text, task.source);
    const width = Math.min(concurrency, valid.length);
    if (switched !== undefined) {
      writeFileSync(join(workspace, target), transpile(ts, switched.text, task.source));
      installWarmScripts(workspace);
      engine =
        (await warmEngine(workspace, testFile, width, timeoutMs)) ??
        (await processEngine(workspace, testFile, timeoutMs));
    }
    if (engine === undefined) {
      writeFileSync(join(workspace, target), original);
      for (let slot = 1; slot < width; slot += 1) slots.push(prepareWorkspace(ts, task.dir));
      engine = copyEngine(ts, slots, testFile, target, text, task.source, baseline, timeoutMs);
    }
    progress(`engine ${(engine as Engine).name}`);
    const fates = await runMutants(engine as Engine, valid, width, progress);

    const killed = valid.filter((mutant) => fates.get(mutant.id) === 'killed');
    const survived = valid.filter((mutant) => fates.get(mutant.id) === 'survived');
    const evidence = [
      ...killed.map((mutant) => `killed: ${describeMutant(task.source, mutant)}`),
      ...survived.map((mutant) => `survived: ${describeMutant(task.source, mutant)}`),
    ];
    const skipped = [
      invalid > 0 ? `, ${invalid} skipped as invalid` : '',
      unswitchable.size > 0 ? `, ${unswitchable.size} skipped as unswitchable` : '',
    ].join('');
    const counts = `${killed.length} of ${valid.length} mutants killed${skipped}`;
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
    engine?.stop();
    for (const slot of slots) removeDir(slot);
  }
}

/** Runs every mutant on the engine, `width` at a time, in order: each one's fate by its id. */
async function runMutants(
  engine: Engine,
  valid: readonly Mutant[],
  width: number,
  progress: (step: string) => void,
): Promise<Map<number, MutantFate>> {
  const fates = new Map<number, MutantFate>();
  let next = 0;
  const run = engine.run;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < valid.length) {
        const mutant = valid[next] as Mutant;
        next += 1;
        progress(`mutant ${mutant.id}`);
        fates.set(mutant.id, await run(mutant));
      }
    }),
  );
  return fates;
}

/**
 * Warm workers: a coverage run on the true source (no mutant live) times each test, counts its
 * hits and records the mutants it reaches; then each mutant runs only the tests that reach it
 * (all of them when it is reached while the module loads), and one no test reaches survives
 * without a run. Undefined when the warm run does not pass as the real runner did.
 */
async function warmEngine(
  workspace: string,
  testFile: string,
  width: number,
  timeoutMs: number,
): Promise<Engine | undefined> {
  const workers = Array.from({ length: width }, () => new WarmWorker(workspace, testFile));
  const stop = () => {
    for (const worker of workers) worker.stop();
  };
  let coverage: WarmRun;
  try {
    coverage = await (workers[0] as WarmWorker).run(
      { active: -1, limit: Number.MAX_SAFE_INTEGER, tests: null, coverage: true },
      timeoutMs,
    );
  } catch {
    stop();
    return undefined;
  }
  if (coverage.status !== 'passed' || coverage.tests === 0) {
    stop();
    return undefined;
  }
  const loadMs = Math.max(0, coverage.durationMs - coverage.perTest.reduce((t, p) => t + p.ms, 0));
  const statics = new Set(coverage.staticCover);
  const idle = [...workers];
  const run: MutantRunner = async (mutant) => {
    const traces = statics.has(mutant.id)
      ? coverage.perTest
      : coverage.perTest.filter((trace) => trace.cover.includes(mutant.id));
    if (traces.length === 0) return 'survived';
    const request: WarmRequest = {
      active: mutant.id,
      limit: guardBound(Math.max(...traces.map((trace) => trace.hits))),
      tests: statics.has(mutant.id) ? null : traces.map((trace) => trace.index),
      coverage: false,
    };
    const limitMs = Math.min(
      timeoutMs,
      warmTimeLimitMs(loadMs + traces.reduce((t, p) => t + p.ms, 0)),
    );
    const worker = idle.pop() ?? new WarmWorker(workspace, testFile);
    try {
      return await fateOfRuns(() => worker.run(request, limitMs));
    } finally {
      idle.push(worker);
    }
  };
  return { name: 'warm', run, stop };
}

/**
 * One `node --test` process per mutant on the instrumented module, the live mutant and the
 * guard's bound in its environment. Undefined when the instrumented module does not pass.
 */
async function processEngine(
  workspace: string,
  testFile: string,
  timeoutMs: number,
): Promise<Engine | undefined> {
  const counts = join(workspace, '.mecha-hits');
  const baseline = await runNodeTest(workspace, testFile, timeoutMs, {
    MECHA_MUTANT: '-1',
    MECHA_COUNTS: counts,
  });
  if (baseline.status !== 'passed') return undefined;
  let hits = 0;
  try {
    hits = Number(readFileSync(counts, 'utf8')) || 0;
  } catch {
    // No count written (the module never loaded): the floor alone bounds the guard.
  }
  const limitMs = Math.min(
    timeoutMs,
    processTimeFactor * baseline.durationMs + processTimeConstantMs,
  );
  const env = (mutant: Mutant) => ({
    MECHA_MUTANT: String(mutant.id),
    MECHA_GUARD: String(guardBound(hits)),
  });
  const run: MutantRunner = (mutant) =>
    fateOfRuns(() => runNodeTest(workspace, testFile, limitMs, env(mutant)));
  return { name: 'process', run, stop: () => {} };
}

/** The last resort: each mutant written out alone in its slot's copy, as the grader once did. */
function copyEngine(
  ts: Awaited<ReturnType<typeof loadTypeScript>>,
  slots: readonly string[],
  testFile: string,
  target: string,
  text: string,
  source: string,
  baseline: TestRun,
  timeoutMs: number,
): Engine {
  const free = [...slots];
  const limitMs = Math.min(
    timeoutMs,
    processTimeFactor * baseline.durationMs + processTimeConstantMs,
  );
  const run: MutantRunner = async (mutant) => {
    const slot = free.pop() as string;
    try {
      writeFileSync(join(slot, target), transpile(ts, applyMutant(text, mutant), source));
      return await fateOfRuns(() => runNodeTest(slot, testFile, limitMs));
    } finally {
      free.push(slot);
    }
  };
  return { name: 'copy', run, stop: () => {} };
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
  'src/graders/mutant-switch.ts',
  'src/graders/warm-pool.ts',
  'src/graders/warm-scripts.ts',
  // How a task is parsed and a grade is shaped change verdicts too.
  'src/graders/builtin.ts',
  'src/grade.ts',
] as const;
