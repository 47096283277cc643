import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { gradeByMutation } from './mutation-grader.js';
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

/** Every file's sha256 under a folder, by name: equal only when nothing was written. */
function fingerprint(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .sort()
      .map((name) => [
        name,
        existsSync(join(dir, name)) && !name.endsWith('/')
          ? createHash('sha256')
              .update(readFileSync(join(dir, name)).toString('base64'))
              .digest('hex')
          : 'dir',
      ]),
  );
}

describe('the mutation grader', () => {
  it('rejects the vacuous test and leaves the task folder byte-identical', async () => {
    const dir = taskCopy('mutation-vacuous-test');
    const before = fingerprint(dir);
    const grade = await gradeByMutation(identity, {
      dir,
      source: 'clamp.ts',
      test: 'clamp.test.ts',
    });
    expect(grade.verdict).toBe('UNSOUND');
    expect(grade.reason).toMatch(/^the test kills no mutant \(0 of \d+ mutants killed\)$/);
    expect(fingerprint(dir)).toEqual(before);
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
    const dir = mkdtempSync(join(tmpdir(), 'grader-task-'));
    made.push(dir);
    // Two mutants matter here. Forcing the loop condition true never ends: it times out twice
    // and is killed. The boundary flip (>= to >) makes the test hang once only (a marker file
    // in the run's folder remembers it), then pass: one timeout is not a kill, so it survives.
    writeFileSync(
      join(dir, 'limit.ts'),
      [
        'export function atLeastTen(x: number): boolean {',
        '  return x >= 10;',
        '}',
        'export function countTo(n: number): number {',
        '  let i = 0;',
        '  while (i < n) i += 1;',
        '  return i;',
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'limit.test.ts'),
      [
        "import assert from 'node:assert/strict';",
        "import { existsSync, writeFileSync } from 'node:fs';",
        "import { test } from 'node:test';",
        "import { atLeastTen, countTo } from './limit.js';",
        'const boundaryFlipped = !atLeastTen(10) && atLeastTen(11) && !atLeastTen(9);',
        "if (boundaryFlipped && !existsSync('hung-once')) {",
        "  writeFileSync('hung-once', '');",
        '  setInterval(() => {}, 1000);',
        '  await new Promise(() => {});',
        '}',
        "test('limits', () => {",
        '  assert.equal(atLeastTen(11), true);',
        '  assert.equal(atLeastTen(3), false);',
        '  assert.equal(countTo(3), 3);',
        '});',
        '',
      ].join('\n'),
    );
    const grade = await gradeByMutation(
      identity,
      { dir, source: 'limit.ts', test: 'limit.test.ts' },
      { concurrency: 1, timeoutMs: 6000 },
    );
    expect(grade.verdict).toBe('CORRECT');
    expect(grade.evidence).toContain('survived: limit.ts:2:12 boundary ">=" → ">"');
    expect(grade.evidence).toContain('killed: limit.ts:6:10 condition "i < n" → "true"');
  });

  it('never leaves the source modified, wherever it is killed with SIGKILL', async () => {
    const dir = taskCopy('mutation-real-test');
    const before = fingerprint(dir);
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
        expect(fingerprint(dir)).toEqual(before);
      }),
      { numRuns: 6 },
    );
    expect(killedSomewhere).toBe(true);
    // What the killed graders left in the temporary folder belongs to dead processes: swept.
    sweepOrphans();
    const owners = readdirSync(tmpdir())
      .map((name) => Number(/^mecha-verdicts-(\d+)-/.exec(name)?.[1]))
      .filter((pid) => Number.isInteger(pid));
    for (const pid of owners) expect(() => process.kill(pid, 0)).not.toThrow();
  });
});
