// Target discovery (targets.mjs): the files under mutation are read from disk, never listed by
// hand. A throwaway repository under the temporary folder stands in for the real one.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { findTargets, targets } from '../targets.mjs';

const runs = Math.min(Number(process.env.MECHA_PROPERTY_RUNS ?? 40), 40);
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

function withRepo(files, body) {
  const root = mkdtempSync(join(tmpdir(), 'mutation-targets-'));
  try {
    for (const dir of ['packages/charter/src', 'packages/appraisal-core/src/rules']) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    for (const file of files) writeFileSync(join(root, file), 'export {};\n');
    return body(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('charter: each source file with a test beside it; appraisal-core: every source file of rules/', () => {
  withRepo(
    [
      'packages/charter/src/guilt.ts',
      'packages/charter/src/guilt.test.ts',
      'packages/charter/src/index.ts',
      'packages/charter/src/index.test-d.ts',
      'packages/charter/src/duration.ts',
      'packages/charter/src/duration.test.ts',
      'packages/charter/src/browser-safe.test.ts',
      'packages/appraisal-core/src/rules/valence.ts',
      'packages/appraisal-core/src/rules/valence.test.ts',
      'packages/appraisal-core/src/rules/owner-act-rows.ts',
      'packages/appraisal-core/src/rules/types.test-d.ts',
      'packages/appraisal-core/src/outside-rules.ts',
    ],
    (root) => {
      const [charter, core] = findTargets(root);
      assert.deepEqual(charter.files, ['duration.ts', 'guilt.ts']);
      assert.deepEqual(core.files, ['rules/owner-act-rows.ts', 'rules/valence.ts']);
      // A rule file added later is found on the next call, without touching targets.mjs.
      writeFileSync(join(root, 'packages/appraisal-core/src/rules/new-rule.ts'), '');
      assert.deepEqual(findTargets(root)[1].files, [
        'rules/new-rule.ts',
        'rules/owner-act-rows.ts',
        'rules/valence.ts',
      ]);
    },
  );
});

const stem = fc.stringMatching(/^[a-z][a-z-]{0,8}$/);

test('the targets are exactly the sources the rule names, sorted, whatever the folders hold', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.record({ stem, test: fc.boolean(), typeTest: fc.boolean() }), {
        selector: (f) => f.stem,
        maxLength: 8,
      }),
      fc.uniqueArray(fc.record({ stem, test: fc.boolean() }), {
        selector: (f) => f.stem,
        maxLength: 8,
      }),
      (charterFiles, ruleFiles) => {
        const files = [
          ...charterFiles.flatMap((f) => [
            `packages/charter/src/${f.stem}.ts`,
            ...(f.test ? [`packages/charter/src/${f.stem}.test.ts`] : []),
            ...(f.typeTest ? [`packages/charter/src/${f.stem}.test-d.ts`] : []),
          ]),
          ...ruleFiles.flatMap((f) => [
            `packages/appraisal-core/src/rules/${f.stem}.ts`,
            ...(f.test ? [`packages/appraisal-core/src/rules/${f.stem}.test.ts`] : []),
          ]),
        ];
        withRepo(files, (root) => {
          const [charter, core] = findTargets(root);
          assert.deepEqual(
            charter.files,
            charterFiles
              .filter((f) => f.test)
              .map((f) => `${f.stem}.ts`)
              .sort(),
          );
          assert.deepEqual(core.files, ruleFiles.map((f) => `rules/${f.stem}.ts`).sort());
        });
      },
    ),
    { numRuns: runs },
  );
});

test('in this repository: every target exists and is no test, owner-act-rows is mutated', () => {
  const core = targets.find((t) => t.name === 'appraisal-core');
  assert.ok(core.files.includes('rules/owner-act-rows.ts'));
  for (const target of targets) {
    assert.ok(target.files.length > 0, target.name);
    for (const file of target.files) {
      assert.ok(existsSync(join(repoRoot, target.dir, 'src', file)), file);
      assert.doesNotMatch(file, /\.test(-d)?\.ts$/);
    }
  }
});
