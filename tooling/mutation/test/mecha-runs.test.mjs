// The pure rules of mecha.mjs: reach from the coverage run, one mutant's request, and what a
// finished run says (fate, tests really run), on runs shaped as mecha.mjs reads them off vitest.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  fateOf,
  orderSpecs,
  reachFrom,
  requested,
  requestFor,
  testsRunIn,
} from '../mecha-runs.mjs';

const runs = Number(process.env.MECHA_PROPERTY_RUNS ?? 200);
const rules = { guardBound: (hits) => hits * 10 + 1000, warmTimeLimitMs: (ms) => ms * 3 + 500 };

/** A coverage run: modules m0…, tests t0… each with the mutants it reached and loaded. */
const coverageRun = fc
  .array(
    fc.array(
      fc.record({
        cover: fc.uniqueArray(fc.nat(12), { maxLength: 5 }),
        load: fc.uniqueArray(fc.nat(12), { maxLength: 2 }),
        ms: fc.nat(500),
        hits: fc.nat(50),
      }),
      { minLength: 1, maxLength: 5 },
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((files) =>
    files.map((tests, m) => ({
      id: `/pkg/m${m}.test.ts`,
      state: 'passed',
      errors: [],
      tests: tests.map((t, i) => ({
        id: `m${m}_t${i}`,
        state: 'passed',
        errors: [],
        ms: t.ms,
        meta: {
          mechaCover: t.cover,
          mechaHits: t.hits,
          // The setup file records the load on a file's first test only.
          ...(i === 0 ? { mechaLoad: t.load, mechaLoadHits: t.hits } : {}),
        },
      })),
    })),
  );

test('reachFrom: a mutant reaches exactly the tests that covered it, or the whole file it was reached in while loading', () => {
  fc.assert(
    fc.property(coverageRun, (modules) => {
      const reach = reachFrom(modules);
      for (let id = 0; id <= 12; id += 1) {
        const expected = new Map();
        for (const module of modules) {
          if (module.tests.some((t) => (t.meta.mechaLoad ?? []).includes(id))) {
            expected.set(module.id, null);
            continue;
          }
          const tests = module.tests.filter((t) => t.meta.mechaCover.includes(id)).map((t) => t.id);
          if (tests.length > 0) expected.set(module.id, new Set(tests));
        }
        if (expected.size === 0) assert.equal(reach.has(id), false, `mutant ${id} is uncovered`);
        else assert.deepEqual(reach.get(id), expected, `mutant ${id}`);
      }
    }),
    { numRuns: runs },
  );
});

test('requestFor: the specifications are the reach, the limits and timeout come from the chosen tests only', () => {
  fc.assert(
    fc.property(coverageRun, (modules) => {
      const reach = reachFrom(modules);
      const moduleOf = new Map(modules.map((m) => [m.id, m]));
      for (const [id, files] of reach) {
        const request = requestFor(id, files, moduleOf, rules);
        assert.equal(request.run.active, id);
        assert.equal(request.run.coverage, false);
        assert.deepEqual(
          request.specs.map((s) => s.moduleId),
          [...files.keys()],
        );
        const chosen = [];
        for (const spec of request.specs) {
          const tests = files.get(spec.moduleId);
          const all = moduleOf.get(spec.moduleId).tests;
          if (tests === null) {
            assert.equal(spec.testIds, undefined, 'a file reached at load runs whole');
            chosen.push(...all);
          } else {
            assert.deepEqual(new Set(spec.testIds), tests);
            chosen.push(...all.filter((t) => tests.has(t.id)));
          }
        }
        assert.deepEqual(Object.keys(request.run.limits).sort(), chosen.map((t) => t.id).sort());
        for (const t of chosen)
          assert.equal(request.run.limits[t.id], rules.guardBound(t.meta.mechaHits));
        const slowest = Math.max(0, ...chosen.map((t) => t.ms));
        assert.equal(request.run.timeoutMs, Math.round(rules.warmTimeLimitMs(slowest)));
      }
    }),
    { numRuns: runs },
  );
});

const test_ = (id, state, errors = []) => ({ id, state, errors, ms: 1, meta: {} });
const module_ = (id, tests, state = 'passed') => ({ id, state, errors: [], tests });

test("requested: a module an earlier run left in vitest's state does not decide this mutant", () => {
  // vitest's result lists every module it holds: the coverage run's and an earlier mutant's.
  const result = {
    modules: [
      module_('/pkg/a.test.ts', [test_('a1', 'passed'), test_('a2', 'skipped')]),
      module_(
        '/pkg/b.test.ts',
        [test_('b1', 'failed', [new Error('expected 2')]), test_('b2', 'pending')],
        'failed',
      ),
      module_('/pkg/c.test.ts', [test_('c1', 'passed'), test_('c2', 'passed')]),
    ],
    unhandled: [],
  };
  assert.equal(fateOf(result), 'killed', 'read whole, the stale failure kills');
  const mine = requested(result, ['/pkg/a.test.ts']);
  assert.deepEqual(
    mine.modules.map((m) => m.id),
    ['/pkg/a.test.ts'],
  );
  assert.equal(fateOf(mine), 'survived');
  assert.equal(testsRunIn(mine), 1, 'the test left out by testIds did not run');
});

const state = fc.constantFrom('passed', 'failed', 'skipped', 'pending');

test('testsRunIn counts the passed and failed tests of the requested modules, never skipped or pending ones', () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(state, { maxLength: 8 }), { maxLength: 5 }),
      fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
      (files, asked) => {
        const run = {
          modules: files.map((states, m) =>
            module_(
              `m${m}`,
              states.map((s, i) => test_(`m${m}_${i}`, s)),
            ),
          ),
          unhandled: [],
        };
        const ids = files.map((_, m) => `m${m}`).filter((_, m) => asked[m]);
        const expected = files
          .filter((_, m) => asked[m])
          .flat()
          .filter((s) => s === 'passed' || s === 'failed').length;
        assert.equal(testsRunIn(requested(run, ids)), expected);
        assert.ok(testsRunIn(requested(run, ids)) <= testsRunIn(run));
      },
    ),
    { numRuns: runs },
  );
});

test('fateOf: survived with no failure, timeout only when every failure is a timeout, else killed', () => {
  const timeout = new Error('Test timed out in 1200ms.');
  const wrong = new Error('expected 1 to be 2');
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('pass', 'timeout', 'wrong'), { maxLength: 6 }),
      fc.boolean(),
      (outcomes, unhandled) => {
        const run = {
          modules: [
            module_(
              'm',
              outcomes.map((o, i) =>
                o === 'pass'
                  ? test_(`t${i}`, 'passed')
                  : test_(`t${i}`, 'failed', [o === 'timeout' ? timeout : wrong]),
              ),
            ),
          ],
          unhandled: unhandled ? [wrong] : [],
        };
        const failures = outcomes.filter((o) => o !== 'pass');
        const expected =
          failures.length === 0 && !unhandled
            ? 'survived'
            : !unhandled && failures.every((o) => o === 'timeout')
              ? 'timeout'
              : 'killed';
        assert.equal(fateOf(run), expected);
      },
    ),
    { numRuns: runs },
  );
});

test('fateOf: a module that failed to load kills', () => {
  const run = {
    modules: [{ id: 'm', state: 'failed', errors: [new Error('boom')], tests: [] }],
    unhandled: [],
  };
  assert.equal(fateOf(run), 'killed');
});

test('orderSpecs: the same files, the one beside the source first, then per-test files by size, then whole files', () => {
  const spec = fc.record({
    moduleId: fc.constantFrom(
      '/p/src/x.test.ts',
      '/p/src/a.test.ts',
      '/p/src/b.test.ts',
      '/p/src/c.test.ts',
    ),
    testIds: fc.option(fc.array(fc.constant('t'), { minLength: 1, maxLength: 4 }), {
      nil: undefined,
    }),
  });
  fc.assert(
    fc.property(fc.uniqueArray(spec, { selector: (s) => s.moduleId }), (specs) => {
      const ordered = orderSpecs(specs, '/p/src/x.ts');
      assert.deepEqual(
        [...ordered].sort((a, b) => a.moduleId.localeCompare(b.moduleId)),
        [...specs].sort((a, b) => a.moduleId.localeCompare(b.moduleId)),
      );
      const beside = specs.find((s) => s.moduleId === '/p/src/x.test.ts');
      if (beside !== undefined) assert.equal(ordered[0], beside);
      const rest = ordered.filter((s) => s !== beside);
      const firstWhole = rest.findIndex((s) => s.testIds === undefined);
      if (firstWhole >= 0) assert.ok(rest.slice(firstWhole).every((s) => s.testIds === undefined));
      const partial = rest.filter((s) => s.testIds !== undefined).map((s) => s.testIds.length);
      assert.deepEqual(
        partial,
        [...partial].sort((a, b) => a - b),
      );
    }),
    { numRuns: runs },
  );
});
