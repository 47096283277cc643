// `npm run mutation -- --grader mecha`, one package: mecha's own mutation grader
// (@mecha/grader-verdicts) over the package's rule files, its vitest suite as the test runner.
// run.mjs starts it with the package as the working directory and MECHA_MUTATION_PACKAGE set,
// as it starts Stryker.
//
//   node mecha.mjs --out REPORT.json [--mutate rules/x.ts …] [--concurrency N]
//
// - The mutants are the grader's (`planMutation`): found on the AST, type-checked against the
//   package's own tsconfig.json in groups, and switched into one instrumented module per file,
//   each mutant behind an id in one shared switch (`globalThis.__mechaSwitch`).
// - The rule files are never written: a Vite plugin hands vitest the instrumented text when it
//   loads a target file, so the real file stays byte-identical whatever happens to this process,
//   SIGKILL included (there is nothing to restore).
// - vitest stays warm: one vitest instance per worker (the Node API, `createVitest`) keeps its
//   Vite server and transform cache for the whole run; each mutant is one
//   `runTestSpecifications` call. The live mutant, the loop guard's bounds and the timeout go
//   to the test workers through `provide`/`inject`, read by mecha-setup.mjs.
// - Per-test reach: a coverage run with no mutant live records, for each test, the mutants it
//   reached (and for each file the mutants reached while it loads); a mutant then runs only the
//   tests that reached it (the whole file where it was reached at load), and one no test reaches
//   is "no coverage" (a survivor, as Stryker counts it).
// - Timeouts and the loop guard follow the grader's rules (`warmTimeLimitMs`, `guardBound`)
//   from the coverage run's per-test times and hits; a timeout kills only when a second run
//   times out too.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { guardBound, planMutation, warmTimeLimitMs } from '@mecha/grader-verdicts';
import { createVitest } from 'vitest/node';
import { fateOf, orderSpecs, reachFrom, requested, requestFor, testsRunIn } from './mecha-runs.mjs';
import { targets } from './targets.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const started = performance.now();
const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    mutate: { type: 'string', multiple: true },
    concurrency: { type: 'string' },
  },
});
const target = targets.find((t) => t.name === process.env.MECHA_MUTATION_PACKAGE);
if (target === undefined || values.out === undefined) {
  console.error('mecha.mjs: run it through `npm run mutation -- --grader mecha`');
  process.exit(2);
}
const pkgDir = process.cwd();
const files = values.mutate ?? target.files;
const width = Math.max(1, Number(values.concurrency ?? 2) || availableParallelism());
const say = (line) => console.log(`[mecha ${target.name}] ${line}`);

// 1. Plan: every mutant of every file, type-checked, switched; ids unique across the package.
const plans = [];
let firstId = 0;
for (const file of files) {
  const plan = await planMutation(join(pkgDir, 'src', file), {
    firstId,
    tsconfig: join(pkgDir, 'tsconfig.json'),
  });
  const found = plan.mutants.length + plan.invalid.length + plan.unswitchable.length;
  plans.push({ file, plan });
  firstId += found;
  say(
    `${file}: ${found} mutants, ${plan.invalid.length} rejected by tsc, ${plan.unswitchable.length} unswitchable`,
  );
}
const instrumented = new Map(plans.map(({ plan }) => [plan.file, plan.instrumented]));
const mutants = plans.flatMap(({ plan }) => plan.mutants);
/** Each mutant's source file (absolute), for the order its test files run in. */
const fileOf = new Map(plans.flatMap(({ plan }) => plan.mutants.map((m) => [m.id, plan.file])));

/** Hands vitest the instrumented module in place of a target file; the file is never written. */
const switchPlugin = {
  name: 'mecha-mutant-switch',
  enforce: 'pre',
  load(id) {
    return instrumented.get(id.split('?')[0]);
  },
};

process.env.MECHA_MUTATION_GRADER = 'mecha';
const silent = {};
async function startVitest() {
  return createVitest(
    'test',
    {
      config: join(here, 'vitest.config.mjs'),
      root: pkgDir,
      watch: false,
      reporters: [silent],
      coverage: { enabled: false },
      typecheck: { enabled: false },
      maxWorkers: 1,
      fileParallelism: false,
      // One failing test kills the mutant: the rest of its run is not needed.
      bail: 1,
    },
    { plugins: [switchPlugin] },
  );
}

/** What one run did: per module its tests (state, time, meta) and whether it failed outright. */
function readRun(result) {
  const modules = result.testModules.map((module) => {
    const tests = [...module.children.allTests()].map((test) => ({
      id: test.id,
      name: test.fullName,
      state: test.result().state,
      errors: test.result().errors ?? [],
      ms: test.diagnostic()?.duration ?? 0,
      meta: test.meta(),
    }));
    const diagnostic = module.diagnostic();
    return {
      id: module.moduleId,
      state: module.state(),
      errors: module.errors(),
      loadMs: (diagnostic.collectDuration ?? 0) + (diagnostic.setupDuration ?? 0),
      tests,
    };
  });
  return { modules, unhandled: result.unhandledErrors };
}

// 2. The coverage run: no mutant live; every test's reach, time and hits.
const instances = [await startVitest()];
const first = instances[0];
const specifications = await first.globTestSpecifications();
say(`coverage run over ${specifications.length} test files`);
first.provide('mechaRun', {
  active: -1,
  coverage: true,
  limit: Number.MAX_SAFE_INTEGER,
  loadLimit: Number.MAX_SAFE_INTEGER,
  limits: null,
  timeoutMs: null,
});
const coverageStarted = performance.now();
const baseline = readRun(await first.runTestSpecifications(specifications, true));
const coverageMs = performance.now() - coverageStarted;
const mutantsStarted = performance.now();
if (fateOf(baseline) !== 'survived') {
  const failing = baseline.modules.flatMap((module) =>
    module.state === 'failed' && module.tests.every((t) => t.state !== 'failed')
      ? [`${relative(pkgDir, module.id)}: ${module.errors.map((e) => e.message).join('; ')}`]
      : module.tests
          .filter((t) => t.state === 'failed')
          .map((t) => `${relative(pkgDir, module.id)} > ${t.name}`),
  );
  console.error(
    `mecha.mjs: the suite does not pass with no mutant live:\n  ${failing.join('\n  ')}`,
  );
  for (const instance of instances) await instance.close();
  process.exit(1);
}

/** For each mutant: the test files that reach it, each with the tests (or null: all of it). */
const reach = reachFrom(baseline.modules);
const moduleOf = new Map(baseline.modules.map((module) => [module.id, module]));
const rules = { guardBound, warmTimeLimitMs };

// 3. The mutants, each on the first free vitest instance.
for (let i = 1; i < width; i += 1) instances.push(await startVitest());
const fates = new Map();
let next = 0;
let done = 0;
let testsRun = 0;
/** Per mutant, the tests its runs really ran (a timeout's confirmation run included). */
const completed = new Map();
const order = mutants.filter((mutant) => reach.has(mutant.id));
for (const mutant of mutants) if (!reach.has(mutant.id)) fates.set(mutant.id, 'NoCoverage');
await Promise.all(
  instances.map(async (vitest) => {
    const own = vitest.getRootProject();
    while (next < order.length) {
      const mutant = order[next];
      next += 1;
      const request = requestFor(mutant.id, reach.get(mutant.id), moduleOf, rules);
      vitest.provide('mechaRun', request.run);
      // One test file at a time, the likeliest killer first, until one kills the mutant.
      let fate = 'survived';
      let ran = 0;
      for (const { moduleId, testIds } of orderSpecs(request.specs, fileOf.get(mutant.id))) {
        const spec = own.createSpecification(
          moduleId,
          testIds === undefined ? undefined : { testIds },
        );
        // Only the requested module: vitest's result also lists what earlier runs left.
        const once = async () =>
          requested(readRun(await vitest.runTestSpecifications([spec], false)), [moduleId]);
        let run = await once();
        let verdict = fateOf(run);
        ran += testsRunIn(run);
        if (verdict === 'timeout') {
          run = await once();
          verdict = fateOf(run) === 'survived' ? 'survived' : 'timeout';
          ran += testsRunIn(run);
        }
        if (verdict !== 'survived') {
          fate = verdict;
          break;
        }
      }
      testsRun += ran;
      completed.set(mutant.id, ran);
      fates.set(mutant.id, { killed: 'Killed', survived: 'Survived', timeout: 'Timeout' }[fate]);
      done += 1;
      if (done % 50 === 0) say(`${done} of ${order.length} mutants run`);
    }
  }),
);
for (const instance of instances) await instance.close();

// 4. The report, in the shape of Stryker's JSON report (what summarise.mjs reads), plus the
// grader's own fields.
function position(text, offset) {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
const report = {
  grader: 'mecha',
  wallMs: performance.now() - started,
  // Where the time went: the coverage run (every test file once), then every mutant's runs.
  coverageMs,
  mutantsMs: performance.now() - mutantsStarted,
  testsRun,
  mutantsRun: order.length,
  files: {},
};
for (const { file, plan } of plans) {
  const source = readFileSync(plan.file, 'utf8');
  const entry = (mutant, status) => ({
    id: String(mutant.id),
    mutatorName: mutant.operator,
    replacement: mutant.replacement,
    status,
    // As Stryker's report counts it: the tests this mutant's runs ran (absent: never run).
    ...(completed.has(mutant.id) ? { testsCompleted: completed.get(mutant.id) } : {}),
    location: { start: position(source, mutant.start), end: position(source, mutant.end) },
  });
  report.files[`src/${file}`] = {
    language: 'typescript',
    source,
    mutants: [
      ...plan.mutants.map((mutant) => entry(mutant, fates.get(mutant.id))),
      ...plan.invalid.map((mutant) => entry(mutant, 'CompileError')),
      ...plan.unswitchable.map((mutant) => ({
        ...entry(mutant, 'Ignored'),
        statusReason: 'unswitchable',
      })),
    ],
  };
}
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
// vitest sets a failing exit code whenever a run fails, as every killed mutant's does.
process.exitCode = 0;
say(
  `${mutants.length} mutants run or uncovered, ${testsRun} tests run (${order.length === 0 ? '—' : (testsRun / order.length).toFixed(1)} a mutant), ${(report.wallMs / 1000).toFixed(1)} s (coverage run ${(coverageMs / 1000).toFixed(1)} s, mutants ${(report.mutantsMs / 1000).toFixed(1)} s)`,
);
