import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { sourceChecker } from './compiling-mutants.js';
import { switchMutants } from './mutant-switch.js';
import { findMutants, type Mutant } from './mutants.js';
import { installWarmScripts, WarmWorker } from './warm-pool.js';
import { prepareWorkspace, removeDir, runnablePath, transpile } from './workspace.js';

const made: string[] = [];
const workers: WarmWorker[] = [];
afterAll(() => {
  for (const worker of workers) worker.stop();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A real task folder, switched and made runnable as the grader does it. */
function warmTask(files: Record<string, string>, source: string, test: string) {
  const task = mkdtempSync(join(tmpdir(), 'grader-task-'));
  made.push(task);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(task, name), text);
  const text = files[source] as string;
  const checker = sourceChecker(ts, join(task, source), text);
  const program = checker.program(text);
  const sourceFile = program.getSourceFile(checker.target);
  if (sourceFile === undefined) throw new TypeError('no source file');
  const mutants = findMutants(ts, sourceFile, program.getTypeChecker());
  const workspace = prepareWorkspace(ts, task);
  made.push(workspace);
  writeFileSync(
    join(workspace, runnablePath(source)),
    transpile(ts, switchMutants(ts, sourceFile, mutants).text, source),
  );
  installWarmScripts(workspace);
  const worker = new WarmWorker(workspace, runnablePath(test));
  workers.push(worker);
  return { mutants, worker, workspace };
}

const countdown = [
  'export function countdown(from: number): number[] {',
  '  const seen: number[] = [];',
  '  let n = from;',
  '  while (n > 0) {',
  '    seen.push(n);',
  '    n -= 1;',
  '  }',
  '  return seen;',
  '}',
  'let calls = 0;',
  'export function nextCall(): number {',
  '  calls += 1;',
  '  return calls;',
  '}',
  '',
].join('\n');

const countdownTest = [
  "import assert from 'node:assert/strict';",
  "import { describe, it, test } from 'node:test';",
  "import { countdown, nextCall } from './countdown.js';",
  "describe('countdown', () => {",
  "  it('counts down to one', () => assert.deepEqual(countdown(3), [3, 2, 1]));",
  '});',
  "test('the first call of a fresh module is call one', () => assert.equal(nextCall(), 1));",
  "test('todo that fails does not fail the file', { todo: true }, () => assert.fail('later'));",
  '',
].join('\n');

const everyTest = { active: -1, limit: Number.MAX_SAFE_INTEGER, tests: null, coverage: true };
// Far longer than any run here takes: when a run ends, it was not this limit that ended it.
const never = 600_000;

describe('a warm test worker', () => {
  it('times and counts each test and records which mutants it reaches', async () => {
    const { mutants, worker } = warmTask(
      { 'countdown.ts': countdown, 'countdown.test.ts': countdownTest },
      'countdown.ts',
      'countdown.test.ts',
    );
    const run = await worker.run(everyTest, never);
    expect(run.status).toBe('passed');
    expect(run.perTest.map((trace) => trace.name)).toEqual([
      'counts down to one',
      'the first call of a fresh module is call one',
      'todo that fails does not fail the file',
    ]);
    const [down, call] = run.perTest;
    const lineOf = (id: number) => (mutants.find((mutant) => mutant.id === id) as Mutant).line;
    expect(down?.cover.every((id) => lineOf(id) <= 9)).toBe(true);
    expect(call?.cover.every((id) => lineOf(id) >= 10)).toBe(true);
    expect(down?.cover.length).toBeGreaterThan(3);
    expect(call?.cover.length).toBeGreaterThan(0);
    // One function entry and three turns of the loop.
    expect(down?.hits).toBe(4);
  });

  it('loads the module afresh for every run: no state leaks from one run to the next', async () => {
    const { worker } = warmTask(
      { 'countdown.ts': countdown, 'countdown.test.ts': countdownTest },
      'countdown.ts',
      'countdown.test.ts',
    );
    for (let round = 0; round < 3; round += 1) {
      const run = await worker.run({ ...everyTest, tests: [1], coverage: false }, never);
      expect(run.status).toBe('passed');
      expect(run.tests).toBe(1);
    }
  });

  it('stops a mutant that never ends its loop at the hit counter, not at the time limit', async () => {
    const { mutants, worker } = warmTask(
      { 'countdown.ts': countdown, 'countdown.test.ts': countdownTest },
      'countdown.ts',
      'countdown.test.ts',
    );
    const forever = mutants.find(
      (mutant) => mutant.operator === 'condition' && mutant.replacement === 'true',
    ) as Mutant;
    expect(forever.original).toBe('n > 0');
    const run = await worker.run(
      { active: forever.id, limit: 10_000, tests: [0], coverage: false },
      never,
    );
    // 'failed', not 'timeout': the guard threw; the ten-minute limit never came near.
    expect(run.status).toBe('failed');
    expect(run.failing).toEqual(['counts down to one']);
  });

  it('ends a run that outlives its limit and starts afresh for the next one', async () => {
    const { worker } = warmTask(
      {
        'wait.ts': 'export function wait(): Promise<void> {\n  return new Promise(() => {});\n}\n',
        'wait.test.ts': [
          "import { test } from 'node:test';",
          "import { wait } from './wait.js';",
          "test('waits forever', async () => { await wait(); });",
          "test('returns', () => {});",
          '',
        ].join('\n'),
      },
      'wait.ts',
      'wait.test.ts',
    );
    // A promise that never settles: only the limit can end this run.
    const hung = await worker.run({ ...everyTest, tests: [0], coverage: false }, 200);
    expect(hung.status).toBe('timeout');
    const after = await worker.run({ ...everyTest, tests: [1], coverage: false }, never);
    expect(after.status).toBe('passed');
  });

  it('fails a run when the test file does not load', async () => {
    const { worker, workspace } = warmTask(
      { 'one.ts': 'export const one = 1;\n', 'one.test.ts': "import './one.js';\n" },
      'one.ts',
      'one.test.ts',
    );
    writeFileSync(join(workspace, 'one.test.js'), "import { nothing } from './one.js';\n");
    const run = await worker.run(everyTest, never);
    expect(run.status).toBe('failed');
    expect(run.failing[0]).toMatch(/^<load> /);
    removeDir(workspace);
  });
});
