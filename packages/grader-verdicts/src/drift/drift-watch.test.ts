import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLeft, rightOrThrow } from '@mecha/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinGraders, type GraderEntry, packageRoot } from '../graders/builtin.js';
import type { MutationTask } from '../graders/mutation-grader.js';
import { checkBank, driftExitCodes, freezeBank, frozenPath } from './drift-watch.js';
import { sealKeyVariable } from './seal.js';

const cases = fileURLToPath(new URL('../../bank/cases/', import.meta.url));
const picked = ['hidden-reference-correct', 'mutation-vacuous-test', 'typecheck-ts-ignore'];
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A small bank of three real cases in a temporary folder, one per grader. */
function smallBank(): string {
  const dir = mkdtempSync(join(tmpdir(), 'drift-bank-'));
  made.push(dir);
  for (const id of picked) cpSync(join(cases, id), join(dir, 'cases', id), { recursive: true });
  return dir;
}

/**
 * A copy of the package's sources inside the package folder (so its imports still resolve),
 * with one file patched; the graders' hashes are read from it.
 */
function patchedSources(file: string, patch: (text: string) => string): string {
  const root = join(packageRoot(), `.sabotage-${process.pid}-${made.length}`);
  made.push(root);
  cpSync(join(packageRoot(), 'src'), join(root, 'src'), {
    recursive: true,
    filter: (source) => !source.endsWith('.test.ts'),
  });
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  const patched = patch(text);
  expect(patched).not.toBe(text);
  writeFileSync(path, patched);
  return root;
}

const env = {};

describe('the drift watch', () => {
  let frozenBank: string;
  beforeAll(async () => {
    frozenBank = smallBank();
    const frozen = await freezeBank(frozenBank, { env });
    expect(isLeft(frozen)).toBe(false);
  });

  it('passes a bank that nothing touched, re-grading every case twice', async () => {
    const report = await checkBank(frozenBank, { env });
    expect(report.code).toBe(driftExitCodes.ok);
    expect(report.meta?.ok).toBe(true);
    expect(report.meta?.results.map((result) => [result.id, result.verdict])).toEqual([
      ['hidden-reference-correct', 'CORRECT'],
      ['mutation-vacuous-test', 'UNSOUND'],
      ['typecheck-ts-ignore', 'UNSOUND'],
    ]);
  });

  it('exits with the flip code when a sabotaged mutation grader lets the vacuous test pass', async () => {
    // A patched copy of the grader that no longer rejects a test which kills nothing: what a
    // loop optimising for green would learn. Its hash moves, and the flip is what is reported.
    const root = patchedSources('src/graders/mutation-grader.ts', (text) =>
      text.replace('if (killed.length === 0) {', 'if (killed.length < 0) {'),
    );
    const patched = (await import(join(root, 'src/graders/mutation-grader.ts'))) as {
      gradeByMutation: typeof import('../graders/mutation-grader.js').gradeByMutation;
    };
    const real = builtinGraders.mutation as GraderEntry;
    const sabotaged: GraderEntry = {
      ...real,
      grade: (task, baseDir, identity, options) => {
        const { dir = '.', ...rest } = task as Partial<MutationTask>;
        return patched.gradeByMutation(
          identity,
          { ...(rest as MutationTask), dir: resolve(baseDir, dir) },
          options,
        );
      },
    };
    const report = await checkBank(frozenBank, {
      env,
      sourceRoot: root,
      graders: { ...builtinGraders, mutation: sabotaged },
    });
    expect(report.code).toBe(driftExitCodes.flip);
    expect(report.flips).toEqual([
      {
        id: 'mutation-vacuous-test',
        grader: 'mutation',
        frozen: 'UNSOUND',
        now: ['CORRECT', 'CORRECT'],
        graderMoved: true,
      },
    ]);
    expect(report.movedGraders.map((grader) => grader.id)).toEqual(['mutation']);
  });

  it('calls a flip under an unchanged hash behavioural drift', async () => {
    const real = builtinGraders.mutation as GraderEntry;
    const drifted: GraderEntry = {
      ...real,
      grade: async (...args) => {
        const grade = await real.grade(...args);
        return grade.verdict === 'UNSOUND' ? { ...grade, verdict: 'CORRECT' } : grade;
      },
    };
    const report = await checkBank(frozenBank, {
      env,
      graders: { ...builtinGraders, mutation: drifted },
    });
    expect(report.code).toBe(driftExitCodes.flip);
    expect(report.flips[0]?.graderMoved).toBe(false);
    expect(report.movedGraders).toEqual([]);
  });

  it('exits with the grader-moved code when a grader changed but no verdict did', async () => {
    const root = patchedSources('src/graders/typecheck-grader.ts', (text) => `// moved\n${text}`);
    const report = await checkBank(frozenBank, { env, sourceRoot: root });
    expect(report.code).toBe(driftExitCodes.graderMoved);
    expect(report.flips).toEqual([]);
    expect(report.movedGraders.map((grader) => grader.id)).toEqual(['typecheck']);
  });

  it('exits with the seal code, before grading anything, when the frozen verdicts are edited', async () => {
    const bank = smallBank();
    expect(isLeft(await freezeBank(bank, { env }))).toBe(false);
    const path = frozenPath(bank);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"UNSOUND"', '"CORRECT"'));
    const report = await checkBank(bank, { env });
    expect(report.code).toBe(driftExitCodes.sealBroken);
    expect(report.sealProblems).toEqual(['the sha256 of the frozen bank does not match']);
    expect(report.meta).toBeNull();
  });

  it('exits with the seal code when a case file is edited after freezing', async () => {
    const bank = smallBank();
    expect(isLeft(await freezeBank(bank, { env }))).toBe(false);
    writeFileSync(join(bank, 'cases/typecheck-ts-ignore/files/length.ts'), 'export {};\n');
    const report = await checkBank(bank, { env });
    expect(report.code).toBe(driftExitCodes.sealBroken);
    expect(report.sealProblems).toEqual([
      'case typecheck-ts-ignore was edited after it was frozen',
    ]);
  });

  it('exits with the seal code on a frozen file that is not the bank any more', async () => {
    const bank = smallBank();
    mkdirSync(bank, { recursive: true });
    writeFileSync(frozenPath(bank), '{"v":1}');
    expect((await checkBank(bank, { env })).code).toBe(driftExitCodes.sealBroken);
    writeFileSync(frozenPath(bank), 'not json');
    expect((await checkBank(bank, { env })).sealProblems).toEqual([
      `${frozenPath(bank)} is not JSON`,
    ]);
  });

  it('keys the seal with an HMAC when the key is set, and trusts nothing under another key', async () => {
    const bank = smallBank();
    const keyed = { [sealKeyVariable]: 'owner-key' };
    const frozen = await freezeBank(bank, { env: keyed });
    expect(rightOrThrow(frozen).frozen.seal.hmac).toMatch(/^[0-9a-f]{64}$/);
    const wrongKey = await checkBank(bank, { env: { [sealKeyVariable]: 'forged' } });
    expect(wrongKey.code).toBe(driftExitCodes.sealBroken);
    const noKey = await checkBank(bank, { env });
    expect(noKey.code).toBe(driftExitCodes.ok);
    expect(noKey.hmacUnverified).toBe(true);
  });

  it('refuses to freeze a bank whose fixtures do not hold', async () => {
    const bank = smallBank();
    const file = join(bank, 'cases/typecheck-ts-ignore/case.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"UNSOUND"', '"CORRECT"'));
    const result = await freezeBank(bank, { env });
    expect(isLeft(result)).toBe(true);
    expect(() => readFileSync(frozenPath(bank))).toThrow();
  });
});
