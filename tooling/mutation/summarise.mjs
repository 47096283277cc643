// Turns Stryker's JSON reports into the table `npm run mutation` prints: per file, the mutants
// by status, those listed as equivalent in equivalent.json, and two scores.
//
// score: killed (or timed out) over every mutant that compiled, as Stryker counts it.
// score excl. equivalent: the same with the mutants listed in equivalent.json taken out of the
// denominator; the bar is 98%. A listed mutant is matched by file, mutator, the source text it
// replaces and its replacement, so moving a line does not unlist it. The same table reads mecha's
// reports (mecha.mjs writes the same shape, with mecha's operator names as mutators); an entry of
// equivalent.json belongs to Stryker unless it says `"grader": "mecha"`.

const detected = new Set(['Killed', 'Timeout']);
const undetected = new Set(['Survived', 'NoCoverage']);

/** The source text a mutant replaces, from the report's copy of the file. */
export function originalText(source, location) {
  const lines = source.split('\n');
  const { start, end } = location;
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  const first = lines[start.line - 1].slice(start.column - 1);
  const middle = lines.slice(start.line, end.line - 1);
  const last = lines[end.line - 1].slice(0, end.column - 1);
  return [first, ...middle, last].join('\n');
}

function key(pkg, file, mutator, original, replacement) {
  return JSON.stringify([pkg, file, mutator, original, replacement]);
}

const pct = (n, d) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)}%`);

/**
 * @param {{ target: { name: string }, report: any }[]} reports
 * @param {{ package: string, file: string, mutator: string, original: string, replacement: string, reason: string, grader?: 'stryker' | 'mecha' }[]} allEquivalents
 * @param {'stryker' | 'mecha'} [grader] whose reports these are
 */
export function summarise(reports, allEquivalents, grader = 'stryker') {
  const equivalents = allEquivalents.filter((e) => (e.grader ?? 'stryker') === grader);
  const listed = new Map(
    equivalents.map((e) => [key(e.package, e.file, e.mutator, e.original, e.replacement), e]),
  );
  const used = new Set();
  const rows = [];
  const open = [];
  const total = { mutants: 0, killed: 0, survived: 0, compile: 0, equivalent: 0 };
  for (const { target, report } of reports) {
    for (const [file, { source, mutants }] of Object.entries(report.files).sort()) {
      const row = {
        file: `${target.name}/${file}`,
        mutants: 0,
        killed: 0,
        survived: 0,
        compile: 0,
        equivalent: 0,
      };
      for (const mutant of mutants) {
        if (mutant.status === 'Ignored' || mutant.status === 'Pending') continue;
        row.mutants += 1;
        if (mutant.status === 'CompileError' || mutant.status === 'RuntimeError') {
          row.compile += 1;
          continue;
        }
        if (detected.has(mutant.status)) {
          row.killed += 1;
          continue;
        }
        if (!undetected.has(mutant.status)) continue;
        const original = originalText(source, mutant.location);
        const k = key(target.name, file, mutant.mutatorName, original, mutant.replacement ?? '');
        if (listed.has(k)) {
          row.equivalent += 1;
          used.add(k);
          continue;
        }
        row.survived += 1;
        open.push(
          `  ${target.name}/${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} ${mutant.status}: ${JSON.stringify(original).slice(0, 70)} → ${JSON.stringify(mutant.replacement ?? '').slice(0, 70)}`,
        );
      }
      rows.push(row);
      for (const field of Object.keys(total)) total[field] += row[field];
    }
  }
  const width = Math.max(...rows.map((r) => r.file.length), 5);
  const lines = [
    `${'file'.padEnd(width)}  mutants  tsc-rejected  killed  survived  equivalent  score   score excl. equivalent`,
  ];
  for (const r of [...rows, { ...total, file: 'all' }]) {
    const valid = r.mutants - r.compile;
    lines.push(
      `${r.file.padEnd(width)}  ${String(r.mutants).padStart(7)}  ${String(r.compile).padStart(12)}  ${String(r.killed).padStart(6)}  ${String(r.survived).padStart(8)}  ${String(r.equivalent).padStart(10)}  ${pct(r.killed, valid).padStart(6)}  ${pct(r.killed, valid - r.equivalent).padStart(6)}`,
    );
  }
  if (open.length > 0)
    lines.push('', `Surviving mutants not listed as equivalent (${open.length}):`, ...open);
  const stale = equivalents.filter(
    (e) =>
      reports.some(({ target, report }) => target.name === e.package && e.file in report.files) &&
      !used.has(key(e.package, e.file, e.mutator, e.original, e.replacement)),
  );
  if (stale.length > 0) {
    lines.push('', `Listed as equivalent but not surviving in this run (${stale.length}):`);
    for (const e of stale)
      lines.push(
        `  ${e.package}/${e.file} ${e.mutator}: ${JSON.stringify(e.original)} → ${JSON.stringify(e.replacement)}`,
      );
  }
  const valid = total.mutants - total.compile - total.equivalent;
  const ok = valid === 0 || total.killed / valid >= 0.98;
  lines.push('', `Score excluding equivalent mutants: ${pct(total.killed, valid)} (bar: 98%)`);
  return { lines, ok };
}
