import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A lint as a test: mecha has two failure shapes (`SourceRead`/`ValueRead` for reads,
 * `Either<Refusal, T>` for acts, see docs/errors.md). This fails when a package's non-test
 * source grows one of the old ones: a `{ ok: true | false }` result, a `{ state: 'refused' }`
 * refusal, or a `{ read: true | false }` reading. The files below still carry them (each with
 * how many lines); a count may only go down. Converting a file lowers its count; a new file or
 * a higher count is a new shape and fails here.
 */
const remaining: Readonly<Record<string, number>> = {
  // A recorded state, not a failure shape: a queue item's outcome ('complete' | 'refused' |
  // 'interrupted') is a row of the appraiser's memory and a line of its journal, which
  // `mecha appraiser queue|status` prints.
  'gpu-appraiser/src/queue.ts': 3,
  'gpu-appraiser/src/work-item.ts': 4,
  // Not converted yet: the grader bank's drift report, prune and registry (another change).
  'grader-verdicts/src/drift/drift-watch.ts': 4,
  'grader-verdicts/src/prune/graph-prune.ts': 14,
  'grader-verdicts/src/registry.ts': 1,
  // A report's line, not a failure shape: one setting of a run's brief, or one store the
  // doctor could not repair, each said as `refused` with its message among the others.
  'stores/src/live/begin-run.ts': 3,
  'stores/src/home-doctor.ts': 2,
};

const oldShape = /\bok: (?:true|false)\b|\bstate: 'refused'|\bread: (?:true|false)\b/;

const isSource = (name: string) =>
  name.endsWith('.ts') && !/\.test(?:-d)?\.ts$/.test(name) && !name.endsWith('.d.ts');

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      return entry.name === '__fixtures__' || entry.name === 'node_modules' ? [] : sources(path);
    }
    return isSource(entry.name) ? [path] : [];
  });
}

/** Lines of each non-test source under `packages/<name>/src` that spell an old shape. */
function oldShapeCounts(packagesDir: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of readdirSync(packagesDir)) {
    let files: string[];
    try {
      files = sources(join(packagesDir, name, 'src'));
    } catch {
      continue; // a folder that is not a package with sources
    }
    for (const file of files) {
      const lines = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => oldShape.test(line)).length;
      if (lines > 0) counts[relative(packagesDir, file).split('\\').join('/')] = lines;
    }
  }
  return counts;
}

describe('the failure shapes in packages', () => {
  it('grow no { ok } result, { state: "refused" } refusal or { read: boolean } reading', () => {
    const packagesDir = fileURLToPath(new URL('../../', import.meta.url));
    const grown = Object.entries(oldShapeCounts(packagesDir))
      .filter(([file, lines]) => lines > (remaining[file] ?? 0))
      .map(([file, lines]) => `${file}: ${lines} lines (allowed ${remaining[file] ?? 0})`);
    expect(
      grown,
      'use SourceRead/ValueRead or Either<Refusal, T> from @mecha/errors (docs/errors.md)',
    ).toEqual([]);
  });
});
