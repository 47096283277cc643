// The vitest setup file of `npm run mutation -- --grader mecha` (mecha.mjs adds it to the
// package's config). It drives the switch the instrumented rule files share
// (`globalThis.__mechaSwitch`, made by mecha's mutation grader, see grader-verdicts'
// mutant-switch.ts): the live mutant and the loop guard's bounds come from mecha.mjs through
// vitest's `provide`/`inject`; in the coverage run (no mutant live) each test's reached mutants,
// hit count and the mutants reached while the file loads go back on the test's `meta`.
import { afterEach, beforeEach, inject, vi } from 'vitest';

const run = inject('mechaRun');
globalThis.__mechaSwitch ??= {
  id: -1,
  limit: Number.POSITIVE_INFINITY,
  hits: 0,
  tripped: false,
  cov: null,
  a(...ids) {
    if (s.cov !== null) for (const i of ids) s.cov.add(i);
    return s.id;
  },
  t() {
    s.hits += 1;
    if (s.hits > s.limit) {
      s.tripped = true;
      throw new RangeError('mecha: loop guard tripped');
    }
  },
};
const s = globalThis.__mechaSwitch;

s.id = run.active;
s.hits = 0;
s.tripped = false;
s.limit = run.loadLimit;
// Everything reached from here to the first test is reached while the file loads (module
// bodies, tables built at import, `describe` bodies): such a mutant runs the whole file.
let loading = run.coverage ? new Set() : null;
s.cov = loading;
if (run.timeoutMs !== null)
  vi.setConfig({ testTimeout: run.timeoutMs, hookTimeout: run.timeoutMs });

// Under a live mutant, one failed test kills it: the file's later tests are skipped at once, as
// Stryker stops at the first failing test (vitest's own `bail` reaches the worker only after
// more tests have run). A skipped test is not counted as run.
let killed = false;

beforeEach((context) => {
  const meta = context.task.meta;
  if (loading !== null) {
    meta.mechaLoad = [...loading];
    meta.mechaLoadHits = s.hits;
    loading = null;
  }
  if (s.tripped) throw new RangeError('mecha: loop guard tripped while the file loaded');
  if (!run.coverage) {
    if (killed) context.skip();
    context.onTestFailed(() => {
      killed = true;
    });
  }
  s.hits = 0;
  s.limit = run.limits?.[context.task.id] ?? run.limit;
  s.cov = run.coverage ? new Set() : null;
});

afterEach((context) => {
  if (run.coverage) {
    context.task.meta.mechaCover = [...s.cov];
    context.task.meta.mechaHits = s.hits;
  }
  s.cov = null;
  // A test that caught the guard's error must not pass: the mutant never ended its loop.
  if (s.tripped) {
    s.tripped = false;
    throw new RangeError('mecha: loop guard tripped');
  }
});
