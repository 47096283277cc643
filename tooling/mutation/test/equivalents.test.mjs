// How a survivor is matched to its entry in equivalent.json (summarise.mjs's `equivalentsOf`,
// used by the table and by the side-by-side comparison), and the rules every entry of the real
// list keeps: an entry whose source text is a bare operator or an empty string gives the code
// around it (`at`), and that code is still in the file it lists.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { equivalentsOf, needsAt, summarise } from '../summarise.mjs';
import { targets } from '../targets.mjs';

const runs = Number(process.env.MECHA_PROPERTY_RUNS ?? 200);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const here = fileURLToPath(new URL('..', import.meta.url));

// Comparisons with the same operator on two lines, two on the second: each mutant's text is `<`.
const source = 'if (a < b) return 1;\nif (c < d || e < f) return 2;\n';
const survivor = (line, column = 7) => ({
  id: `${line}:${column}`,
  status: 'Survived',
  mutatorName: 'boundary',
  location: { start: { line, column }, end: { line, column: column + 1 } },
  replacement: '<=',
});
const entry = (at) => ({
  package: 'core',
  file: 'src/x.ts',
  grader: 'mecha',
  mutator: 'boundary',
  original: '<',
  replacement: '<=',
  reason: 'test',
  ...(at === undefined ? {} : { at }),
});
const reports = [
  {
    target: { name: 'core' },
    report: {
      files: { 'src/x.ts': { source, mutants: [survivor(1), survivor(2), survivor(2, 16)] } },
    },
  },
];

test('an entry that gives the code around it lists the mutant in that code and no other', () => {
  const listedAs = equivalentsOf([entry('e < f')], 'mecha');
  assert.equal(listedAs('core', 'src/x.ts', source, survivor(1)), undefined);
  assert.equal(listedAs('core', 'src/x.ts', source, survivor(2)), undefined);
  assert.equal(listedAs('core', 'src/x.ts', source, survivor(2, 16))?.at, 'e < f');
  // Code that holds another mutant's `<` but not this one's does not list it.
  assert.equal(
    equivalentsOf([entry('(c <')], 'mecha')('core', 'src/x.ts', source, survivor(2, 16)),
    undefined,
  );
  const { lines } = summarise(reports, [entry('e < f')], 'mecha');
  assert.ok(lines.some((line) => line.includes('src/x.ts:1:7 boundary Survived')));
  assert.ok(lines.some((line) => line.includes('src/x.ts:2:7 boundary Survived')));
  assert.ok(!lines.some((line) => line.includes('src/x.ts:2:16')));
});

test("an entry is one grader's: the other grader's survivor with the same text stays open", () => {
  assert.equal(
    equivalentsOf([entry(undefined)], 'stryker')('core', 'src/x.ts', source, survivor(1)),
    undefined,
  );
});

test('an entry whose line is no longer a survivor is reported as listed but not surviving', () => {
  const { lines } = summarise(reports, [entry('g < h')], 'mecha');
  assert.ok(lines.includes('Listed as equivalent but not surviving in this run (1):'));
  assert.equal(lines.filter((line) => line.includes('boundary Survived')).length, 3);
});

test('a bare operator or an empty string needs its code around it; text with a letter or digit does not', () => {
  for (const text of ['<', '||', "''", '""', "'_'", '-', '===', '{}']) {
    assert.equal(needsAt(text), true);
  }
  for (const text of ['a < b', "'x'", '0', 'score.hit']) assert.equal(needsAt(text), false);
  fc.assert(
    fc.property(fc.string(), (text) => {
      assert.equal(needsAt(text), !/[\p{L}\p{N}]/u.test(text));
    }),
    { numRuns: runs },
  );
});

test('every entry of equivalent.json gives code that is in its file as it is now, and one with a bare operator gives the code around it', () => {
  const list = JSON.parse(readFileSync(join(here, 'equivalent.json'), 'utf8'));
  const problems = [];
  for (const e of list) {
    const target = targets.find((t) => t.name === e.package);
    assert.ok(target, `${e.package} is a mutation target`);
    const text = readFileSync(join(root, target.dir, e.file), 'utf8');
    const lines = text.split('\n');
    const name = `${e.package}/${e.file} ${e.mutator} ${JSON.stringify(e.original)}`;
    if (needsAt(e.original) && e.at === undefined) problems.push(`${name}: no "at"`);
    // An entry that gives its code lists nothing once that code is gone: say so here, not later.
    if (e.at !== undefined && !lines.some((line) => line.includes(e.at))) {
      problems.push(`${name}: "at" is in no line of the file`);
    }
    if (e.at !== undefined && !e.at.includes(e.original))
      problems.push(`${name}: "at" does not hold the text`);
    // An entry whose text is gone from the file lists nothing: its reason is about old code.
    if (e.at === undefined && !text.includes(e.original)) {
      problems.push(`${name}: the text is no longer in the file`);
    }
  }
  assert.deepEqual(problems, []);
});
