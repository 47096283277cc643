// Turns Stryker's JSON reports into the table `npm run mutation` prints: per file, the mutants
// by status, those listed as equivalent in equivalent.json, and two scores.
//
// score: killed (or timed out) over every mutant that compiled, as Stryker counts it.
// score excl. equivalent: the same with the mutants listed in equivalent.json taken out of the
// denominator; the bar is 98%. A listed mutant is matched by file, mutator, the source text it
// replaces and its replacement, so moving a line does not unlist it; an entry whose source text is
// a bare operator or an empty string (`<`, `||`, `''`), which many mutants of one file share, also
// gives the code around it (`at`, a stretch of its line such as `a.rank - b.rank` that holds the
// mutant), so it lists that mutant and no other.
// The same table reads mecha's
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

/** Whether an entry's source text is too common to name one mutant alone: no letter or digit. */
export const needsAt = (original) => !/[\p{L}\p{N}]/u.test(original);

/**
 * Whether `at` is a stretch of the mutant's line that holds the mutant's source text (its first
 * line, for one that spans lines), from the report's copy of the file.
 */
function holds(at, source, location, original) {
  const line = source.split('\n')[location.start.line - 1] ?? '';
  const from = location.start.column - 1;
  const to = from + (original.split('\n')[0] ?? '').length;
  for (let i = line.indexOf(at); i !== -1 && i <= from; i = line.indexOf(at, i + 1)) {
    if (to <= i + at.length) return true;
  }
  return false;
}

/**
 * One grader's entries of equivalent.json as a lookup: the entry that lists a surviving mutant of
 * `file` in package `pkg`, or undefined.
 * @param {{ package: string, file: string, mutator: string, original: string, replacement: string, at?: string, grader?: 'stryker' | 'mecha' }[]} allEquivalents
 * @param {'stryker' | 'mecha'} grader
 */
export function equivalentsOf(allEquivalents, grader) {
  const byKey = new Map();
  for (const e of allEquivalents.filter((e) => (e.grader ?? 'stryker') === grader)) {
    const k = key(e.package, e.file, e.mutator, e.original, e.replacement);
    byKey.set(k, [...(byKey.get(k) ?? []), e]);
  }
  return (pkg, file, source, mutant) => {
    const original = originalText(source, mutant.location);
    const found = byKey.get(key(pkg, file, mutant.mutatorName, original, mutant.replacement ?? ''));
    return found?.find((e) => e.at === undefined || holds(e.at, source, mutant.location, original));
  };
}

const pct = (n, d) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)}%`);

/**
 * @param {{ target: { name: string }, report: any }[]} reports
 * @param {{ package: string, file: string, mutator: string, original: string, replacement: string, reason: string, at?: string, grader?: 'stryker' | 'mecha' }[]} allEquivalents
 * @param {'stryker' | 'mecha'} [grader] whose reports these are
 */
export function summarise(reports, allEquivalents, grader = 'stryker') {
  const equivalents = allEquivalents.filter((e) => (e.grader ?? 'stryker') === grader);
  const listedAs = equivalentsOf(allEquivalents, grader);
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
        const entry = listedAs(target.name, file, source, mutant);
        if (entry !== undefined) {
          row.equivalent += 1;
          used.add(entry);
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
      !used.has(e),
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
