/**
 * The three files a warm test worker runs, written into the grader's temporary copy of a task
 * (never into the task). They are plain JavaScript so that they run as they are, from the built
 * package and from its sources alike.
 *
 * - the worker: loads the hooks, then for each request imports the test file afresh (a new
 *   `?run=N` query on every file of the copy, so no module state leaks from one mutant's run
 *   into the next), runs the tests it was asked for and answers with what happened;
 * - the hooks: `node:test` resolves to the shim, and the run's query follows every relative
 *   import;
 * - the shim: the part of `node:test` that test files use (`test`/`it`, `describe`/`suite`,
 *   hooks, subtests, skip and todo, `mock`), collecting the tests so the worker can run them one
 *   by one, timing each and recording which mutants it reaches.
 */

export const workerFile = '__mecha_worker.mjs';
export const hooksFile = '__mecha_hooks.mjs';
export const shimFile = '__mecha_test.mjs';

export const workerScript = `import { register } from 'node:module';
register('./${hooksFile}', import.meta.url);
const shim = await import('./${shimFile}');
const testUrl = new URL(process.argv[2], import.meta.url).href;
process.on('disconnect', () => process.exit(0));
process.on('message', async (request) => {
  const answer = await shim.runFile(testUrl + '?run=' + request.run, request);
  process.send({ run: request.run, ...answer });
});
process.send({ ready: true });
`;

export const hooksScript = `const shim = new URL('./${shimFile}', import.meta.url).href;
export async function resolve(specifier, context, next) {
  if ((specifier === 'node:test' || specifier === 'test') && context.parentURL !== shim) {
    return { url: shim, shortCircuit: true };
  }
  const resolved = await next(specifier, context);
  const parent = context.parentURL === undefined ? undefined : new URL(context.parentURL);
  if (parent !== undefined && parent.search.startsWith('?run=') && resolved.url.startsWith('file:')
      && !resolved.url.includes('/node_modules/') && !resolved.url.startsWith(shim)) {
    const url = new URL(resolved.url);
    url.search = parent.search;
    return { ...resolved, url: url.href };
  }
  return resolved;
}
`;

export const shimScript = `import * as real from 'node:test';
export const mock = real.mock;
const state = (globalThis.__mechaSwitch ??= (() => {
  const s = { id: -1, limit: Infinity, hits: 0, tripped: false, cov: null,
    a(...ids) { if (s.cov !== null) for (const i of ids) s.cov.add(i); return s.id; },
    t() { s.hits += 1; if (s.hits > s.limit) { s.tripped = true; throw new RangeError('mecha: loop guard tripped'); } } };
  return s;
})());
let uncaught = [];
process.on('uncaughtException', (error) => { uncaught.push(error); });
process.on('unhandledRejection', (error) => { uncaught.push(error); });

function suiteOf(name, options) {
  return { kind: 'suite', name, skip: Boolean(options.skip || options.todo), children: [],
    before: [], after: [], beforeEach: [], afterEach: [] };
}
let current = suiteOf('', {});
const pending = [];
function split(name, options, fn) {
  if (typeof name === 'function') return [name.name || '<anonymous>', {}, name];
  if (typeof options === 'function') return [name ?? '<anonymous>', {}, options];
  if (typeof name === 'object' && name !== null) return ['<anonymous>', name, options];
  return [name ?? '<anonymous>', options ?? {}, fn];
}
export function test(...args) {
  const [name, options, fn] = split(...args);
  current.children.push({ kind: 'test', name, fn, skip: Boolean(options.skip), todo: Boolean(options.todo) });
}
export function describe(...args) {
  const [name, options, fn] = split(...args);
  const suite = suiteOf(name, options);
  current.children.push(suite);
  const outer = current;
  current = suite;
  try {
    const result = fn?.();
    if (result && typeof result.then === 'function') pending.push(result);
  } finally {
    current = outer;
  }
}
test.skip = (...args) => { const [n, o, f] = split(...args); test(n, { ...o, skip: true }, f); };
test.todo = (...args) => { const [n, o, f] = split(...args); test(n, { ...o, todo: true }, f); };
test.only = test;
describe.skip = (...args) => { const [n, o, f] = split(...args); describe(n, { ...o, skip: true }, f); };
describe.todo = (...args) => { const [n, o, f] = split(...args); describe(n, { ...o, todo: true }, f); };
describe.only = describe;
export const it = test;
export const suite = describe;
export function before(fn) { current.before.push(fn); }
export function after(fn) { current.after.push(fn); }
export function beforeEach(fn) { current.beforeEach.push(fn); }
export function afterEach(fn) { current.afterEach.push(fn); }
export default test;

function call(fn, context) {
  if (fn.length >= 2) {
    return new Promise((resolve, reject) => {
      fn(context, (error) => (error ? reject(error) : resolve()));
    });
  }
  return fn(context);
}
function contextFor(name) {
  const later = [];
  const children = [];
  const flags = { skipped: false, todo: false };
  const context = {
    name, fullName: name, signal: new AbortController().signal, mock: real.mock,
    diagnostic() {}, skip() { flags.skipped = true; }, todo() { flags.todo = true; },
    after(fn) { later.push(fn); },
    plan() { throw new Error('mecha test shim: t.plan is not supported'); },
    test(...args) {
      const [n, o, f] = split(...args);
      if (o.skip) return Promise.resolve();
      const child = contextFor(n);
      const run = (async () => { await call(f, child); await child.finish(); })();
      children.push(o.todo ? run.catch(() => {}) : run);
      return run.then(() => {}, () => {});
    },
    flags,
    async finish() {
      const settled = await Promise.allSettled(children);
      for (const fn of later) await fn(context);
      const failure = settled.find((entry) => entry.status === 'rejected');
      if (failure) throw failure.reason;
    },
  };
  return context;
}

export async function runFile(url, request) {
  state.id = request.active;
  state.limit = request.limit;
  state.hits = 0;
  state.tripped = false;
  const staticCover = new Set();
  state.cov = request.coverage ? staticCover : null;
  current = suiteOf('', {});
  pending.length = 0;
  uncaught = [];
  const root = current;
  const perTest = [];
  const failing = [];
  let index = -1;
  try {
    await import(url);
    await Promise.all(pending);
  } catch (error) {
    return { status: 'failed', tests: 0, failed: 1, failing: ['<load> ' + String(error?.message ?? error)], perTest, staticCover: [...staticCover] };
  }
  const wanted = request.tests === null ? null : new Set(request.tests);
  const plan = (suite) => {
    let any = false;
    for (const child of suite.children) {
      if (child.kind === 'suite') { child.wanted = plan(child) && !child.skip; any ||= child.wanted; }
      else { index += 1; child.index = index; child.wanted = (wanted === null || wanted.has(index)) && !child.skip && !suite.skip; any ||= child.wanted; }
    }
    return any;
  };
  plan(root);
  const runSuite = async (suite, eachBefore, eachAfter) => {
    if (!suite.wanted && suite !== root) return;
    const ctx = contextFor(suite.name);
    try {
      for (const hook of suite.before) await call(hook, ctx);
    } catch (error) {
      failing.push(suite.name + ' (before)');
      return;
    }
    const beforeAll = [...eachBefore, ...suite.beforeEach];
    const afterAll = [...suite.afterEach, ...eachAfter];
    for (const child of suite.children) {
      if (!child.wanted) continue;
      if (child.kind === 'suite') { await runSuite(child, beforeAll, afterAll); continue; }
      const context = contextFor(child.name);
      state.hits = 0;
      state.tripped = false;
      const cover = new Set();
      state.cov = request.coverage ? cover : null;
      uncaught = [];
      const started = performance.now();
      let failed = false;
      try {
        for (const hook of beforeAll) await call(hook, context);
        await call(child.fn, context);
        await context.finish();
        for (const hook of afterAll) await call(hook, context);
      } catch {
        failed = true;
      }
      real.mock.restoreAll();
      if (state.tripped || uncaught.length > 0) failed = true;
      if (child.todo || context.flags.todo || context.flags.skipped) failed = false;
      perTest.push({ index: child.index, name: child.name, ms: performance.now() - started, hits: state.hits, cover: [...cover] });
      state.cov = null;
      if (failed) failing.push(child.name);
    }
    try {
      for (const hook of suite.after) await call(hook, ctx);
    } catch {
      failing.push(suite.name + ' (after)');
    }
  };
  await runSuite(root, [], []);
  return { status: failing.length === 0 ? 'passed' : 'failed', tests: perTest.length, failed: failing.length, failing, perTest, staticCover: [...staticCover] };
}
`;
