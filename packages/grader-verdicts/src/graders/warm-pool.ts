import { type ChildProcess, fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestRun } from './node-test.js';
import {
  hooksFile,
  hooksScript,
  shimFile,
  shimScript,
  workerFile,
  workerScript,
} from './warm-scripts.js';

/** One test as a warm run saw it: its place in the file, its time, its hits, what it reached. */
export interface TestTrace {
  readonly index: number;
  readonly name: string;
  readonly ms: number;
  readonly hits: number;
  readonly cover: readonly number[];
}

/** A warm run: a test run, plus each test's trace and the mutants reached while loading. */
export interface WarmRun extends TestRun {
  readonly perTest: readonly TestTrace[];
  readonly staticCover: readonly number[];
}

/** What a warm worker is asked to run. */
export interface WarmRequest {
  /** The live mutant, −1 for none. */
  readonly active: number;
  /** The guard's bound on hits per test (a number: JSON has no Infinity). */
  readonly limit: number;
  /** The indexes of the tests to run, all when null. */
  readonly tests: readonly number[] | null;
  /** Record per-test coverage. */
  readonly coverage: boolean;
}

interface Answer {
  readonly run: number;
  readonly status: 'passed' | 'failed';
  readonly tests: number;
  readonly failed: number;
  readonly failing: string[];
  readonly perTest: TestTrace[];
  readonly staticCover: number[];
}

/** Worker processes recycle after this many runs: every run's modules stay loaded. */
const runsPerWorker = 300;

/** Writes the worker, its hooks and the test shim into a grader's temporary copy. */
export function installWarmScripts(dir: string): void {
  writeFileSync(join(dir, workerFile), workerScript);
  writeFileSync(join(dir, hooksFile), hooksScript);
  writeFileSync(join(dir, shimFile), shimScript);
}

/**
 * One warm worker: a Node process that keeps running test files for mutant after mutant. A run
 * that outlives its limit, or a worker that dies, ends the process (SIGKILL); the next run
 * starts a fresh one.
 */
export class WarmWorker {
  private child: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private runs = 0;
  private sequence = 0;

  constructor(
    private readonly dir: string,
    private readonly testFile: string,
  ) {}

  private start(): Promise<void> {
    const child = fork(join(this.dir, workerFile), [this.testFile], {
      cwd: this.dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: 'test' },
      execArgv: [],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    this.child = child;
    this.runs = 0;
    return new Promise((resolve, reject) => {
      const onMessage = (message: { ready?: boolean }) => {
        if (message.ready === true) {
          child.off('message', onMessage);
          child.off('exit', onExit);
          resolve();
        }
      };
      const onExit = () => reject(new Error('the warm test worker exited while starting'));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.once('error', reject);
    });
  }

  /** Ends the worker now (SIGKILL: a run that never ends does not get a say). */
  stop(): void {
    const child = this.child;
    this.child = undefined;
    this.ready = undefined;
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
    }
  }

  /** Runs the test file once under `request`, killed after `limitMs`. */
  async run(request: WarmRequest, limitMs: number): Promise<WarmRun> {
    if (this.runs >= runsPerWorker) this.stop();
    if (this.ready === undefined) this.ready = this.start();
    await this.ready;
    const child = this.child as ChildProcess;
    this.runs += 1;
    this.sequence += 1;
    const run = this.sequence;
    const started = performance.now();
    return new Promise<WarmRun>((resolve) => {
      const finish = (outcome: WarmRun) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(outcome);
      };
      const ended = (status: TestRun['status']): WarmRun => ({
        status,
        tests: 0,
        failed: status === 'failed' ? 1 : 0,
        failing: [],
        durationMs: performance.now() - started,
        perTest: [],
        staticCover: [],
      });
      const onMessage = (answer: Answer) => {
        if (answer.run !== run) return;
        const { run: _run, ...rest } = answer;
        finish({ ...rest, durationMs: performance.now() - started });
      };
      // A worker that dies mid-run (process.exit in a test, a crash) failed that run.
      const onExit = () => {
        this.child = undefined;
        this.ready = undefined;
        finish(ended('failed'));
      };
      const timer = setTimeout(() => {
        this.stop();
        finish(ended('timeout'));
      }, limitMs);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ run, ...request });
    });
  }
}
