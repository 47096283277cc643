// The side-by-side table of `--grader both` (compare.mjs): per-file counts and scores of each
// tool, the survivors of both merged per file, and the tests each tool ran per mutant.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compareGraders, testsPerMutant } from '../compare.mjs';

const runs = Number(process.env.MECHA_PROPERTY_RUNS ?? 200);
const source = 'const a = b > c;\nreturn a && d;\n';
const at = (line, column, length) => ({
  start: { line, column },
  end: { line, column: column + length },
});

/** One tool's report of one file: `[status, mutator, location, replacement, tests?]` each. */
function report(file, mutants, ms) {
  return {
    target: { name: 'core' },
    ms,
    report: {
      files: {
        [file]: {
          source,
          mutants: mutants.map(
            ([status, mutatorName, location, replacement, testsCompleted], i) => ({
              id: String(i),
              status,
              mutatorName,
              location,
              replacement,
              ...(testsCompleted === undefined ? {} : { testsCompleted }),
            }),
          ),
        },
      },
    },
  };
}

test('one file: counts, scores, the difference, and the survivors of both tools side by side', () => {
  const stryker = [
    report(
      'src/rules/x.ts',
      [
        ['Killed', 'EqualityOperator', at(1, 11, 5), 'b >= c', 3],
        ['Survived', 'ConditionalExpression', at(1, 11, 5), 'true', 4],
        ['CompileError', 'BooleanLiteral', at(1, 11, 5), '!(b > c)'],
        ['Timeout', 'LogicalOperator', at(2, 8, 6), 'a || d', 5],
      ],
      600_000,
    ),
  ];
  const mecha = [
    report(
      'src/rules/x.ts',
      [
        ['Killed', 'relational-boundary', at(1, 11, 5), 'b >= c', 1],
        ['Killed', 'condition-true', at(1, 11, 5), 'true', 2],
        ['NoCoverage', 'logical-swap', at(2, 8, 6), 'a || d'],
        ['Ignored', 'unswitchable', at(2, 8, 6), 'x'],
      ],
      200_000,
    ),
  ];
  const equivalents = [
    // Listed for mecha only: it must not mark Stryker's survivor as equivalent.
    {
      package: 'core',
      file: 'src/rules/x.ts',
      mutator: 'ConditionalExpression',
      original: 'b > c',
      replacement: 'true',
      grader: 'mecha',
    },
  ];
  const lines = compareGraders(stryker, mecha, equivalents);
  assert.equal(
    lines[2],
    '| core/rules/x.ts | 4 | 1 | 2 | 1 | 66.7% | 66.7% | 3 | 0 | 2 | 1 | 66.7% | 66.7% | 0.0 | 0.0 |',
  );
  assert.ok(
    lines.includes(
      'Wall time, every file above: Stryker 600 s, mecha 200 s (Stryker ÷ mecha 3.00×).',
    ),
  );
  assert.ok(lines.includes('Tests run per mutant that ran: Stryker 4.0, mecha 1.5.'));
  assert.ok(
    lines.includes(
      '| core/rules/x.ts | 1:11 ConditionalExpression `b > c` → `true` | 2:8 logical-swap (no coverage) `a && d` → `a \\|\\| d` |',
    ),
    lines.join('\n'),
  );
});

test('a survivor listed for its own grader is marked equivalent; files with no survivor are left out of the survivors table', () => {
  const stryker = [
    report('src/a.ts', [['Survived', 'ConditionalExpression', at(1, 11, 5), 'true']], 1),
  ];
  const mecha = [report('src/a.ts', [['Killed', 'condition-true', at(1, 11, 5), 'true']], 1)];
  const listed = [
    {
      package: 'core',
      file: 'src/a.ts',
      mutator: 'ConditionalExpression',
      original: 'b > c',
      replacement: 'true',
    },
  ];
  assert.ok(
    compareGraders(stryker, mecha, listed).includes(
      '| core/a.ts | 1:11 ConditionalExpression `b > c` → `true` (equivalent) | none |',
    ),
  );
  // Stryker's one survivor is listed: its score is 0.0% raw and has no denominator without it.
  assert.equal(
    compareGraders(stryker, mecha, listed)[2],
    '| core/a.ts | 1 | 0 | 0 | 1 | 0.0% | — | 1 | 0 | 1 | 0 | 100.0% | 100.0% | 100.0 | — |',
  );
  const clean = compareGraders(mecha, mecha, []);
  assert.equal(clean.at(-1), '| --- | --- | --- |');
});

const status = fc.constantFrom(
  'Killed',
  'Timeout',
  'Survived',
  'NoCoverage',
  'CompileError',
  'Ignored',
);
const mutants = fc.array(fc.tuple(status, fc.nat(1), fc.nat(20)), { maxLength: 12 });
const files = fc.dictionary(fc.constantFrom('src/a.ts', 'src/b.ts', 'src/c.ts'), mutants);
const toReports = (byFile) =>
  Object.entries(byFile).map(([file, list]) =>
    report(
      file,
      list.map(([s, line, tests]) => [s, `m${line}`, at(line + 1, 1, 3), 'x', tests]),
      1000,
    ),
  );

test('a survivor listed as equivalent for one tool only: the raw scores differ, the scores without listed equivalents agree', () => {
  // owner-act-rows' case: Stryker's one survivor is a mutant mecha never makes, listed as
  // equivalent; mecha kills all of its own.
  const stryker = [
    report(
      'src/a.ts',
      [
        ['Killed', 'EqualityOperator', at(1, 11, 5), 'b >= c'],
        ['Killed', 'EqualityOperator', at(1, 11, 5), 'b < c'],
        ['Survived', 'ConditionalExpression', at(2, 8, 6), 'true'],
      ],
      1,
    ),
  ];
  const mecha = [report('src/a.ts', [['Killed', 'boundary', at(1, 11, 5), 'b >= c']], 1)];
  const listed = [
    {
      package: 'core',
      file: 'src/a.ts',
      mutator: 'ConditionalExpression',
      original: 'a && d',
      replacement: 'true',
    },
  ];
  const lines = compareGraders(stryker, mecha, listed);
  assert.equal(
    lines[2],
    '| core/a.ts | 3 | 0 | 2 | 1 | 66.7% | 100.0% | 1 | 0 | 1 | 0 | 100.0% | 100.0% | 33.3 | 0.0 |',
  );
  assert.equal(
    lines[3],
    '| **all** | 3 | 0 | 2 | 1 | 66.7% | 100.0% | 1 | 0 | 1 | 0 | 100.0% | 100.0% | 33.3 | 0.0 |',
  );
});

test('per file and in total, each side counts exactly its own mutants; the survivors merge loses none', () => {
  fc.assert(
    fc.property(files, files, (left, right) => {
      const lines = compareGraders(toReports(left), toReports(right), []);
      const count = (list, pred) => list.filter(([s]) => pred(s)).length;
      const cells = (list) => {
        if (list === undefined) return ['—', '—', '—', '—', '—', '—'];
        const kept = list.filter(([s]) => s !== 'Ignored');
        const compile = count(kept, (s) => s === 'CompileError');
        const killed = count(kept, (s) => s === 'Killed' || s === 'Timeout');
        const survived = count(kept, (s) => s === 'Survived' || s === 'NoCoverage');
        const valid = kept.length - compile;
        // Nothing is listed as equivalent here, so both scores are the same.
        const score = valid === 0 ? '—' : `${((100 * killed) / valid).toFixed(1)}%`;
        return [kept.length, compile, killed, survived, score, score].map(String);
      };
      const names = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
      names.forEach((file, i) => {
        const row = lines[2 + i].split(' | ');
        assert.equal(row[0], `| core/${file.replace(/^src\//, '')}`);
        assert.deepEqual(row.slice(1, 7), cells(left[file]));
        assert.deepEqual(row.slice(7, 13), cells(right[file]));
      });
      const all = (side) => Object.values(side).flat();
      const total = lines[2 + names.length].split(' | ');
      assert.deepEqual(total.slice(1, 5), cells(all(left)).slice(0, 4));
      assert.deepEqual(total.slice(7, 11), cells(all(right)).slice(0, 4));
      // The survivors table: one row per file where either side has a survivor, each side
      // listing exactly its survivors (or "none").
      const table = lines.slice(lines.indexOf('| --- | --- | --- |') + 1);
      const withSurvivors = names.filter((f) =>
        [left[f], right[f]].some((list) =>
          list?.some(([s]) => s === 'Survived' || s === 'NoCoverage'),
        ),
      );
      assert.equal(table.length, withSurvivors.length);
      table.forEach((line, i) => {
        const [, a, b] = line.slice(2, -2).split(' | ');
        const listed = (cell) => (cell === 'none' ? 0 : cell.split('<br>').length);
        const file = withSurvivors[i];
        assert.equal(listed(a), Number(cells(left[file])[3] === '—' ? 0 : cells(left[file])[3]));
        assert.equal(listed(b), Number(cells(right[file])[3] === '—' ? 0 : cells(right[file])[3]));
      });
    }),
    { numRuns: runs },
  );
});

test('testsPerMutant: the mean of testsCompleted over the mutants that ran, none when none ran', () => {
  fc.assert(
    fc.property(files, (byFile) => {
      const ran = Object.values(byFile)
        .flat()
        .filter(([s]) => s === 'Killed' || s === 'Survived' || s === 'Timeout');
      const expected =
        ran.length === 0 ? undefined : ran.reduce((t, [, , n]) => t + n, 0) / ran.length;
      const got = testsPerMutant(toReports(byFile));
      if (expected === undefined) assert.equal(got, undefined);
      else assert.ok(Math.abs(got - expected) < 1e-9, `${got} vs ${expected}`);
    }),
    { numRuns: runs },
  );
});
