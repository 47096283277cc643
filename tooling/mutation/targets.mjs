// The files under mutation, found on disk (never listed by hand): every source file of
// appraisal-core's rules folder, and charter's rule files — each source file of charter that has
// its own test beside it (charter is pure throughout: the barrel, the types, the test
// arbitraries and the error class have no test of their own and hold no rule). A new rule file
// is mutated on the next run without touching this file.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const isSource = (name) => name.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(name);

/** The source files of `sub` under the package's `src/` (paths relative to `src/`), sorted. */
function sources(root, pkgDir, sub, keep = () => true) {
  const dir = join(root, pkgDir, 'src', sub);
  return readdirSync(dir)
    .filter((name) => isSource(name) && keep(join(dir, name)))
    .sort()
    .map((name) => (sub === '' ? name : `${sub}/${name}`));
}

const besideTest = (path) => existsSync(path.replace(/\.ts$/, '.test.ts'));

/**
 * The targets of the repository at `root`, read from its files now.
 * @param {string} root the repository root
 */
export function findTargets(root) {
  return [
    {
      name: 'charter',
      dir: 'packages/charter',
      files: sources(root, 'packages/charter', '', besideTest),
      // Tests that read the source as text; left out of the mutation run only (see vitest.config.mjs).
      sourceScans: {
        'src/browser-safe.test.ts':
          'greps the source for Node globals; the instrumented source has them',
      },
    },
    {
      name: 'appraisal-core',
      dir: 'packages/appraisal-core',
      files: sources(root, 'packages/appraisal-core', 'rules'),
      sourceScans: {
        'src/api-report.test.ts':
          "compares the package's declared API with the checked-in report; the instrumented source is not the declared one",
      },
    },
  ];
}

export const targets = findTargets(fileURLToPath(new URL('../..', import.meta.url)));
