import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A lint as a test: mecha has two failure shapes (`SourceRead`/`ValueRead` for reads,
 * `Either<Refusal, T>` for acts, see docs/errors.md). This fails when a package's or an app's
 * non-test source (`packages/<name>/src`, `apps/<name>/src`) grows one of the old ones: a `{ ok: true | false }` result, a `{ state: 'refused' }`
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
  // A report's line, not a failure shape: one setting of a run's brief, or one store the
  // doctor could not repair, each said as `refused` with its message among the others.
  'stores/src/live/begin-run.ts': 3,
  'stores/src/home-doctor.ts': 2,
};

/** The same for the apps (`apps/<name>/src`), by path under `apps/`. */
const remainingInApps: Readonly<Record<string, number>> = {
  // Wire formats, not failure shapes: what `--json` prints (a refusal as `{ state: 'refused',
  // reason, … }`, a control, the board that could not be read, the grader bank's freeze and
  // prune answers), kept byte for byte for the scripts that read them.
  'cli/src/command.ts': 3,
  'cli/src/commands/appraiser-shared.ts': 1,
  'cli/src/commands/tasks.ts': 1,
  'cli/src/commands/verdicts/freeze.ts': 3,
  'cli/src/commands/verdicts/prune.ts': 3,
  // A wire format: the web board's `/healthz` JSON body.
  'web/src/routes/assets.ts': 1,
  // A page's banner, not a failure shape: `Said` is what a page shows after a form (its lines,
  // and whether they say it worked), rendered into the HTML.
  'web/src/pages/board-page.ts': 3,
  'web/src/routes/board-context.ts': 2,
  'web/src/routes/board.ts': 2,
  'web/src/routes/charter.ts': 2,
  'web/src/routes/corpus.ts': 1,
  'web/src/routes/drafts.ts': 2,
  'web/src/routes/questions.ts': 1,
  'web/src/routes/review.ts': 6,
  'web/src/routes/runs.ts': 1,
  'web/src/routes/session.ts': 1,
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

/** Lines of each non-test source under `<dir>/<name>/src` that spell an old shape. */
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

function grownShapes(dir: string, allowed: Readonly<Record<string, number>>): string[] {
  return Object.entries(oldShapeCounts(dir))
    .filter(([file, lines]) => lines > (allowed[file] ?? 0))
    .map(([file, lines]) => `${file}: ${lines} lines (allowed ${allowed[file] ?? 0})`);
}

describe('the failure shapes in packages', () => {
  it('grow no { ok } result, { state: "refused" } refusal or { read: boolean } reading', () => {
    const packagesDir = fileURLToPath(new URL('../../', import.meta.url));
    expect(
      grownShapes(packagesDir, remaining),
      'use SourceRead/ValueRead or Either<Refusal, T> from @mecha/errors (docs/errors.md)',
    ).toEqual([]);
  });
});

describe('the failure shapes in apps', () => {
  it('grow no { ok } result, { state: "refused" } refusal or { read: boolean } reading', () => {
    const appsDir = fileURLToPath(new URL('../../../apps/', import.meta.url));
    expect(
      grownShapes(appsDir, remainingInApps),
      'use SourceRead/ValueRead or Either<Refusal, T> from @mecha/errors (docs/errors.md)',
    ).toEqual([]);
  });
});
