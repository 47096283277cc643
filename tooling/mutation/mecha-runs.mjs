// The pure rules of mecha.mjs (`npm run mutation -- --grader mecha`), kept apart from vitest so
// that test/mecha-runs.test.mjs can run them: which tests each mutant reaches (from the coverage
// run), what one mutant's run asks vitest for, what a finished run says (its fate, the tests it
// really ran). Runs are plain objects here: `{ modules: [{ id, state, errors, tests: [{ id,
// state, errors, ms, meta }] }], unhandled }`, read off vitest's test modules by mecha.mjs.

/**
 * For each mutant id: the test files that reach it, each with the ids of the tests that reach it,
 * or `null` where it is reached while the file loads (module bodies, `describe` bodies): then the
 * whole file runs, as Stryker runs every test for a static mutant.
 * @param {{ id: string, tests: { id: string, meta: { mechaLoad?: number[], mechaCover?: number[] } }[] }[]} modules the coverage run's modules
 * @returns {Map<number, Map<string, Set<string> | null>>}
 */
export function reachFrom(modules) {
  const reach = new Map();
  const filesOf = (id) => {
    let files = reach.get(id);
    if (files === undefined) {
      files = new Map();
      reach.set(id, files);
    }
    return files;
  };
  for (const module of modules) {
    for (const test of module.tests) {
      for (const id of test.meta.mechaLoad ?? []) filesOf(id).set(module.id, null);
      for (const id of test.meta.mechaCover ?? []) {
        const files = filesOf(id);
        const tests = files.has(module.id) ? files.get(module.id) : new Set();
        if (tests !== null) files.set(module.id, tests.add(test.id));
      }
    }
  }
  return reach;
}

/**
 * One mutant's run: the specifications (a module and the ids of the tests to run in it, or
 * `undefined` for all of it) and the limits the setup file reads, derived from the coverage
 * run's times and hits by the grader's rules.
 * @param {number} active the mutant's id
 * @param {Map<string, Set<string> | null>} files its reach (`reachFrom`)
 * @param {Map<string, { tests: { id: string, ms: number, meta: { mechaHits?: number, mechaLoadHits?: number } }[] }>} moduleOf the coverage run's modules by id
 * @param {{ guardBound: (hits: number) => number, warmTimeLimitMs: (ms: number) => number }} rules
 */
export function requestFor(active, files, moduleOf, { guardBound, warmTimeLimitMs }) {
  const specs = [];
  const limits = {};
  let slowest = 0;
  let loadHits = 0;
  for (const [moduleId, tests] of files) {
    const module = moduleOf.get(moduleId);
    const chosen = tests === null ? module.tests : module.tests.filter((t) => tests.has(t.id));
    for (const test of chosen) {
      limits[test.id] = guardBound(test.meta.mechaHits ?? 0);
      slowest = Math.max(slowest, test.ms);
    }
    for (const test of module.tests) loadHits = Math.max(loadHits, test.meta.mechaLoadHits ?? 0);
    specs.push({ moduleId, testIds: tests === null ? undefined : [...tests] });
  }
  return {
    specs,
    run: {
      active,
      coverage: false,
      limit: guardBound(0),
      loadLimit: guardBound(loadHits),
      limits,
      timeoutMs: Math.round(warmTimeLimitMs(slowest)),
    },
  };
}

/**
 * The part of a run that belongs to this request. vitest's run result lists every test module
 * its state holds, so the modules an earlier run left there (the coverage run's, an earlier
 * mutant's failures) come back too; only the requested modules say anything about this mutant.
 * @param {{ modules: { id: string }[], unhandled: unknown[] }} run
 * @param {Iterable<string>} moduleIds the requested modules
 */
export function requested(run, moduleIds) {
  const ids = new Set(moduleIds);
  return { ...run, modules: run.modules.filter((module) => ids.has(module.id)) };
}

const timedOut = (error) => /timed out/i.test(String(error?.message ?? error));

/**
 * killed, survived or timeout, from a run's modules: any failed test, failed module or unhandled
 * error kills; a timeout is when every failure is a timeout.
 * @returns {'killed' | 'survived' | 'timeout'}
 */
export function fateOf(run) {
  const failures = [
    ...run.unhandled,
    ...run.modules.flatMap((module) => [
      ...module.errors,
      ...module.tests.filter((t) => t.state === 'failed').flatMap((t) => t.errors),
    ]),
  ];
  const failed = run.modules.some(
    (module) => module.state === 'failed' || module.tests.some((t) => t.state === 'failed'),
  );
  if (!failed && run.unhandled.length === 0) return 'survived';
  return failures.length > 0 && failures.every(timedOut) ? 'timeout' : 'killed';
}

/**
 * The tests a run really ran: those that passed or failed. A test left out by the `testIds`
 * filter is "skipped", one `bail` stopped before it started is "pending"; neither ran.
 */
export function testsRunIn(run) {
  let count = 0;
  for (const module of run.modules) {
    for (const test of module.tests)
      if (test.state === 'passed' || test.state === 'failed') count += 1;
  }
  return count;
}

/**
 * The order a mutant's test files run in, one file at a time until one kills it (as Stryker
 * stops at the first failing test): the test file beside the mutated source first, then the
 * files where only some tests reach it (fewest first), then the files reached while loading,
 * which run whole. Ties keep their order.
 * @param {{ moduleId: string, testIds: string[] | undefined }[]} specs
 * @param {string} mutatedFile absolute path of the mutated source
 */
export function orderSpecs(specs, mutatedFile) {
  const beside = mutatedFile.replace(/\.ts$/, '.test.ts');
  const rank = (spec) => [
    spec.moduleId === beside ? 0 : 1,
    spec.testIds === undefined ? 1 : 0,
    spec.testIds?.length ?? 0,
  ];
  return specs
    .map((spec, index) => ({ spec, index, key: rank(spec) }))
    .sort((a, b) => {
      for (let i = 0; i < a.key.length; i += 1) {
        if (a.key[i] !== b.key[i]) return a.key[i] - b.key[i];
      }
      return a.index - b.index;
    })
    .map(({ spec }) => spec);
}
