import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderSnapshot } from '@mecha/vitest-config/folder-snapshot';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fateOfRuns, gradeByMutation } from './mutation-grader.js';
import type { TestRun } from './node-test.js';
import { sweepOrphans } from './workspace.js';

const identity = { id: 'mutation', hash: 'test' };
const bank = fileURLToPath(new URL('../../bank/cases/', import.meta.url));
const built = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A writable copy of a bank case's files. */
function taskCopy(caseId: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'grader-task-'));
  made.push(dir);
  cpSync(join(bank, caseId, 'files'), dir, { recursive: true });
  return dir;
}

describe('the mutation grader', () => {
  it('rejects the vacuous test and leaves the task folder byte-identical', async () => {
    const dir = taskCopy('mutation-vacuous-test');
    const before = folderSnapshot(dir);
    const grade = await gradeByMutation(identity, {
      dir,
      source: 'clamp.ts',
      test: 'clamp.test.ts',
    });
    expect(grade.verdict).toBe('UNSOUND');
    expect(grade.reason).toMatch(
      /^the test kills no mutant \(0 of \d+ mutants killed(, \d+ skipped as invalid)?\)$/,
    );
    expect(folderSnapshot(dir)).toEqual(before);
  });

  it('says "thin coverage" when one mutant of several dies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'grader-task-'));
    made.push(dir);
    writeFileSync(
      join(dir, 'age.ts'),
      "export function isAdult(age: number): boolean {\n  return age >= 18;\n}\nexport function tag(): string {\n  return 'v1';\n}\n",
    );
    writeFileSync(
      join(dir, 'age.test.ts'),
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { isAdult } from './age.js';\ntest('an adult', () => assert.equal(isAdult(30), true));\n",
    );
    const grade = await gradeByMutation(identity, { dir, source: 'age.ts', test: 'age.test.ts' });
    expect(grade.verdict).toBe('CORRECT');
    expect(grade.notes[0]).toMatch(/^thin coverage: only 1 of \d+ mutants killed$/);
  });

  it('calls a test file without tests WRONG: there is nothing to retry but the test', async () => {
    const dir = taskCopy('mutation-real-test');
    writeFileSync(join(dir, 'clamp.test.ts'), "import { clamp } from './clamp.js';\nvoid clamp;\n");
    const grade = await gradeByMutation(identity, {
      dir,
      source: 'clamp.ts',
      test: 'clamp.test.ts',
    });
    expect(grade.verdict).toBe('WRONG');
    expect(grade.reason).toBe('the test file declares no tests');
  });

  it('counts a timeout as a kill only when it repeats', async () => {
    const run = (status: TestRun['status']): TestRun => ({
      status,
      tests: 1,
      failed: status === 'failed' ? 1 : 0,
      failing: [],
      durationMs: 0,
    });
    const statuses = fc.constantFrom<TestRun['status']>('passed', 'failed', 'timeout');
    await fc.assert(
      fc.asyncProperty(statuses, statuses, async (first, second) => {
        const runs: TestRun['status'][] = [];
        const fate = await fateOfRuns(async () => {
          runs.push(runs.length === 0 ? first : second);
          return run(runs.at(-1) as TestRun['status']);
        });
        // A second run happens after a timeout, and only then; its outcome is the verdict.
        expect(runs).toEqual(first === 'timeout' ? [first, second] : [first]);
        expect(fate).toBe(runs.at(-1) === 'passed' ? 'survived' : 'killed');
      }),
    );
  });

  it('kills a mutant that hangs every time, through a real timeout of a real test process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'grader-task-'));
    made.push(dir);
    // Forcing the loop condition true makes the test wait forever (idle, on a timer), so the
    // run is killed at the timeout, twice. Every other mutant ends on its own: the timeout is
    // generous, so only a run that never ends can reach it, however loaded the machine.
    writeFileSync(
      join(dir, 'settle.ts'),
      [
        'export async function settle(ready: () => boolean): Promise<number> {',
        '  let polls = 0;',
        '  while (!ready()) {',
        '    polls += 1;',
        '    await new Promise((resolve) => setTimeout(resolve, 5));',
        '  }',
        '  return polls;',
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'settle.test.ts'),
      [
        "import assert from 'node:assert/strict';",
        "import { test } from 'node:test';",
        "import { settle } from './settle.js';",
        "test('settles after the third poll', async () => {",
        '  let asked = 0;',
        '  assert.equal(await settle(() => ++asked > 2), 2);',
        '});',
        '',
      ].join('\n'),
    );
    const grade = await gradeByMutation(
      identity,
      { dir, source: 'settle.ts', test: 'settle.test.ts' },
      { concurrency: 2, timeoutMs: 10_000 },
    );
    expect(grade.verdict).toBe('CORRECT');
    expect(grade.evidence).toContain('killed: settle.ts:3:10 condition "!ready()" → "true"');
  });

  it('runs the tests in warm workers, and each mutant in its own process when the file needs more of node:test', async () => {
    const grade = async (test: string) => {
      const dir = taskCopy('mutation-real-test');
      writeFileSync(join(dir, 'clamp.test.ts'), test);
      const steps: string[] = [];
      const result = await gradeByMutation(
        identity,
        { dir, source: 'clamp.ts', test: 'clamp.test.ts' },
        { onProgress: (step) => steps.push(step) },
      );
      return { result, engine: steps.find((step) => step.startsWith('engine ')) };
    };
    const body = (context: string) =>
      [
        "import assert from 'node:assert/strict';",
        "import { test } from 'node:test';",
        "import { clamp } from './clamp.js';",
        `test('clamp', (t) => {${context}`,
        '  assert.equal(clamp(-3, 0, 10), 0);',
        '  assert.equal(clamp(13, 0, 10), 10);',
        '  assert.equal(clamp(5, 0, 10), 5);',
        '});',
        '',
      ].join('\n');
    const warm = await grade(body(''));
    // t.runOnly is real node:test, and not in the warm workers' shim: the file cannot run warm.
    const cold = await grade(body(' t.runOnly(false);'));
    expect(warm.engine).toBe('engine warm');
    expect(cold.engine).toBe('engine process');
    expect(cold.result.verdict).toBe('CORRECT');
    expect(cold.result.reason).toBe(warm.result.reason);
    expect(cold.result.evidence).toEqual(warm.result.evidence);
  });

  it('never leaves the source modified, wherever it is killed with SIGKILL', async () => {
    const dir = taskCopy('mutation-real-test');
    const before = folderSnapshot(dir);
    const graderPids: number[] = [];
    const child = (killAfter: number) =>
      new Promise<{ steps: number; killed: boolean }>((resolve, reject) => {
        const script = [
          `const { gradeTask } = await import(${JSON.stringify(built)});`,
          `await gradeTask('mutation', { source: 'clamp.ts', test: 'clamp.test.ts' }, ${JSON.stringify(dir)}, {`,
          "  concurrency: 2, onProgress: (step) => process.stdout.write(step + '\\n') });",
          "process.stdout.write('done\\n');",
        ].join('\n');
        const grader = spawn(process.execPath, ['--input-type=module', '-e', script], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        if (grader.pid !== undefined) graderPids.push(grader.pid);
        let steps = 0;
        let killed = false;
        let buffer = '';
        grader.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          buffer += chunk;
          const lines = buffer.split('\n');
          buffer = lines.pop() ?? '';
          steps += lines.filter((line) => line !== 'done').length;
          // The kill point is a step of the grader's own progress, never a timer.
          if (!killed && steps >= killAfter) {
            killed = grader.kill('SIGKILL');
          }
        });
        grader.on('error', reject);
        grader.on('close', () => resolve({ steps, killed }));
      });
    let killedSomewhere = false;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 13 }), async (killAfter) => {
        const { killed } = await child(killAfter);
        killedSomewhere ||= killed;
        expect(folderSnapshot(dir)).toEqual(before);
      }),
      { numRuns: 6 },
    );
    expect(killedSomewhere).toBe(true);
    // What the killed graders left in the temporary folder belongs to dead processes: swept.
    // (Only these graders' folders are looked at: other suites on this machine may be grading.)
    sweepOrphans();
    const left = readdirSync(tmpdir()).filter((name) =>
      graderPids.includes(Number(/^mecha-verdicts-(\d+)-/.exec(name)?.[1])),
    );
    expect(left).toEqual([]);
    // Six graders, each loading the compiler in its own process: minutes on a loaded machine.
  }, 360_000);
});
