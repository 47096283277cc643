// The StrykerJS configuration `run.mjs` hands to Stryker, once per package (the working
// directory). Which files to mutate comes from `targets.mjs`; `--mutate` narrows it.
import { fileURLToPath } from 'node:url';
import { targets } from './targets.mjs';

const here = (path) => fileURLToPath(import.meta.resolve(path));
const pkg = process.env.MECHA_MUTATION_PACKAGE;
const target = targets.find((t) => t.name === pkg);
if (target === undefined) {
  throw new TypeError(`MECHA_MUTATION_PACKAGE names no package in targets.mjs: ${pkg}`);
}

export default {
  packageManager: 'pnpm',
  plugins: [here('@stryker-mutator/vitest-runner'), here('@stryker-mutator/typescript-checker')],
  testRunner: 'vitest',
  vitest: {
    configFile: fileURLToPath(new URL('./vitest.config.mjs', import.meta.url)),
    related: false,
  },
  // A mutant that the project's own `tsc` rejects is not a gap in the tests: the checker drops it.
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  // Each mutant runs only the tests that covered it.
  coverageAnalysis: 'perTest',
  // A docs test reads docs/appraisal.md outside the package, so the sandbox copy cannot be used.
  inPlace: true,
  mutate: target.files.map((file) => `src/${file}`),
  concurrency: Number(process.env.MECHA_MUTATION_CONCURRENCY ?? 2),
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: {
    fileName: `${process.env.MECHA_MUTATION_OUT}/${process.env.MECHA_MUTATION_REPORT ?? pkg}.json`,
  },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  timeoutMS: 60_000,
  // The dry run over all 24 rule files of appraisal-core (2,977 mutants instrumented, per-test
  // coverage) passed Stryker's default 5 minutes at a load average of 16 on two cores and the
  // run stopped there (2026-12-04); a whole-package run needs the room.
  dryRunTimeoutMinutes: 30,
  thresholds: { high: 98, low: 90, break: null },
};
