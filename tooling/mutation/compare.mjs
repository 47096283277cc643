// The two graders side by side (`npm run mutation -- --grader both`): per file, each tool's
// mutants, tsc-rejected, killed, survivors and score (raw, and with the survivors listed in
// equivalent.json for that tool left out), the difference in points by both measures, the survivors
// of each listed under one another, and each tool's wall time for the whole run. Markdown, so
// the table can go into docs/testing.md as printed.
import { equivalentsOf, originalText } from './summarise.mjs';

const detected = new Set(['Killed', 'Timeout']);
const undetected = new Set(['Survived', 'NoCoverage']);

/** Per file of one tool's reports: counts, and each survivor with whether it is listed. */
function perFile(reports, equivalents, grader) {
  const listedAs = equivalentsOf(equivalents, grader);
  const files = new Map();
  for (const { target, report } of reports) {
    for (const [file, { source, mutants }] of Object.entries(report.files)) {
      const row = {
        mutants: 0,
        compile: 0,
        skipped: 0,
        killed: 0,
        survived: 0,
        equivalent: 0,
        survivors: [],
      };
      for (const mutant of mutants) {
        if (mutant.status === 'Pending') continue;
        if (mutant.status === 'Ignored') {
          row.skipped += 1;
          continue;
        }
        row.mutants += 1;
        if (mutant.status === 'CompileError' || mutant.status === 'RuntimeError') row.compile += 1;
        else if (detected.has(mutant.status)) row.killed += 1;
        else if (undetected.has(mutant.status)) {
          const original = originalText(source, mutant.location);
          const equivalent = listedAs(target.name, file, source, mutant) !== undefined;
          row.survived += 1;
          if (equivalent) row.equivalent += 1;
          row.survivors.push({
            line: mutant.location.start.line,
            text: `${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName}${mutant.status === 'NoCoverage' ? ' (no coverage)' : ''} \`${clip(original)}\` → \`${clip(mutant.replacement ?? '')}\`${equivalent ? ' (equivalent)' : ''}`,
          });
        }
      }
      row.survivors.sort((a, b) => a.line - b.line);
      files.set(`${target.name}/${file.replace(/^src\//, '')}`, row);
    }
  }
  return files;
}

const ran = new Set(['Killed', 'Survived', 'Timeout']);

/**
 * Tests run per mutant, as both reports count them (`testsCompleted` on each mutant): the mean
 * over the mutants that ran (killed, survived or timed out); `undefined` when none ran or the
 * report does not count them.
 * @param {{ report: { files: Record<string, { mutants: { status: string, testsCompleted?: number }[] }> } }[]} reports
 */
export function testsPerMutant(reports) {
  let tests = 0;
  let mutants = 0;
  for (const { report } of reports) {
    for (const { mutants: list } of Object.values(report.files)) {
      for (const mutant of list) {
        if (!ran.has(mutant.status) || typeof mutant.testsCompleted !== 'number') continue;
        tests += mutant.testsCompleted;
        mutants += 1;
      }
    }
  }
  return mutants === 0 ? undefined : tests / mutants;
}

const clip = (text) => {
  const one = text.replace(/\s+/g, ' ');
  return (one.length > 60 ? `${one.slice(0, 57)}…` : one)
    .replaceAll('|', '\\|')
    .replaceAll('`', "'");
};
const score = (row) => {
  const valid = row.mutants - row.compile;
  return valid === 0 ? undefined : (100 * row.killed) / valid;
};
/** The score with the survivors listed as equivalent (for this tool) out of the denominator. */
const scoreExcl = (row) => {
  const valid = row.mutants - row.compile - row.equivalent;
  return valid === 0 ? undefined : (100 * row.killed) / valid;
};
const pct = (value) => (value === undefined ? '—' : `${value.toFixed(1)}%`);
const cells = (row) =>
  row === undefined
    ? ['—', '—', '—', '—', '—', '—']
    : [
        row.mutants,
        row.compile,
        row.killed,
        row.survived,
        pct(score(row)),
        pct(scoreExcl(row)),
      ].map(String);
/** mecha's score minus Stryker's in points, by one measure; — where either side has none. */
const gap = (a, b, measure) =>
  a === undefined || b === undefined || measure(a) === undefined || measure(b) === undefined
    ? '—'
    : (measure(b) - measure(a)).toFixed(1);
const perMutant = (value) => (value === undefined ? '—' : value.toFixed(1));
const seconds = (ms) => (ms === undefined ? '—' : `${(ms / 1000).toFixed(0)} s`);

/**
 * @param {{ target: { name: string }, report: any, ms?: number }[]} stryker
 * @param {{ target: { name: string }, report: any, ms?: number }[]} mecha
 * @param {{ package: string, file: string, mutator: string, original: string, replacement: string, grader?: string }[]} equivalents
 * @returns {string[]} Markdown lines
 */
export function compareGraders(stryker, mecha, equivalents) {
  const left = perFile(stryker, equivalents, 'stryker');
  const right = perFile(mecha, equivalents, 'mecha');
  const files = [...new Set([...left.keys(), ...right.keys()])].sort();
  const lines = [
    '| file | Stryker mutants | tsc-rejected | killed | survived | score | excl. equivalent | mecha mutants | tsc-rejected | killed | survived | score | excl. equivalent | mecha − Stryker | excl. equivalent |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const total = (rows) =>
    rows.reduce(
      (sum, row) => {
        for (const field of ['mutants', 'compile', 'killed', 'survived', 'equivalent'])
          sum[field] += row[field];
        return sum;
      },
      { mutants: 0, compile: 0, killed: 0, survived: 0, equivalent: 0 },
    );
  for (const file of files) {
    const a = left.get(file);
    const b = right.get(file);
    lines.push(
      `| ${file} | ${[...cells(a), ...cells(b), gap(a, b, score), gap(a, b, scoreExcl)].join(' | ')} |`,
    );
  }
  const ta = total([...left.values()]);
  const tb = total([...right.values()]);
  lines.push(
    `| **all** | ${[...cells(ta), ...cells(tb), gap(ta, tb, score), gap(ta, tb, scoreExcl)].join(' | ')} |`,
  );
  const ms = (reports) =>
    reports.every((r) => r.ms !== undefined) ? reports.reduce((t, r) => t + r.ms, 0) : undefined;
  const msA = ms(stryker);
  const msB = ms(mecha);
  lines.push(
    '',
    `Wall time, every file above: Stryker ${seconds(msA)}, mecha ${seconds(msB)}${msA && msB ? ` (Stryker ÷ mecha ${(msA / msB).toFixed(2)}×)` : ''}.`,
    `Tests run per mutant that ran: Stryker ${perMutant(testsPerMutant(stryker))}, mecha ${perMutant(testsPerMutant(mecha))}.`,
    '',
    '| file | Stryker survivors | mecha survivors |',
    '| --- | --- | --- |',
  );
  for (const file of files) {
    const a = left.get(file)?.survivors ?? [];
    const b = right.get(file)?.survivors ?? [];
    if (a.length === 0 && b.length === 0) continue;
    const list = (survivors) =>
      survivors.length === 0 ? 'none' : survivors.map((s) => s.text).join('<br>');
    lines.push(`| ${file} | ${list(a)} | ${list(b)} |`);
  }
  return lines;
}
