import fc from 'fast-check';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { compilingMutants, sourceChecker } from './compiling-mutants.js';
import { switchMutants } from './mutant-switch.js';
import { applyMutant, findMutants, type Mutant, mutantUnits } from './mutants.js';
import { transpile } from './workspace.js';

// Loops of every kind, recursion, optional chains, literals, a regex, update and assignment
// operators: every operator has somewhere to act, and some mutants never end a loop.
const source = `
export function tally(list: number[], limit: number): number {
  let total = 0;
  for (let i = 0; i < list.length; i++) {
    if ((list[i] ?? 0) > limit) continue;
    total += list[i] ?? 0;
  }
  return total;
}
export function label(n: number, tag?: { name?: string }): string {
  const parts = [String(n)];
  if (n % 2 === 0 && n !== 0) parts.push('even');
  else if (n < 0 || n > 100) parts.push('out');
  const named = { first: parts[0] ?? '', rest: parts.slice(1) };
  return named.first + named.rest.join('-') + (/^x[a-z]+$/.test(tag?.name ?? '') ? '!' : '');
}
export function steps(n: number): number {
  let count = 0;
  let value = Math.abs(n) + 1;
  do {
    value = value % 2 === 0 ? value / 2 : 3 * value + 1;
    count++;
  } while (value > 1 && count < 40);
  return count;
}
export function depth(n: number): number {
  if (n <= 0) return 0;
  return 1 + depth(n - 1);
}
export function lean(n: number): number {
  let x = n;
  if (x > 3) x -= 2;
  else x += 1;
  while (x > 50) x -= 7;
  return x;
}
export function grade(n: number): string {
  let out = String(n % 4);
  switch (n % 4) {
    case 0:
      out += 'a';
      break;
    case 1:
    case 2: {
      out += 'c';
      break;
    }
    case 3:
      out += 'b';
      return out;
    default:
      out += 'd';
  }
  return out;
}
`;

interface Switch {
  id: number;
  limit: number;
  hits: number;
  tripped: boolean;
  cov: Set<number> | null;
  a(...ids: number[]): number;
  t(): void;
}
type Api = {
  tally(list: number[], limit: number): number;
  label(n: number, tag?: { name?: string }): string;
  steps(n: number): number;
  depth(n: number): number;
  lean(n: number): number;
  grade(n: number): string;
};

const state: Switch = {
  id: -1,
  limit: 20_000,
  hits: 0,
  tripped: false,
  cov: null,
  a(...ids) {
    if (state.cov !== null) for (const id of ids) state.cov.add(id);
    return state.id;
  },
  t() {
    state.hits += 1;
    if (state.hits > state.limit) {
      state.tripped = true;
      throw new RangeError('mecha: loop guard tripped');
    }
  },
};
const global = globalThis as { __mechaSwitch?: Switch };
afterEach(() => {
  delete global.__mechaSwitch;
});

let loaded = 0;
async function load(text: string): Promise<Api> {
  global.__mechaSwitch = state;
  loaded += 1;
  const js = `${transpile(ts, text, 'module.ts')}\n// ${loaded}`;
  return (await import(`data:text/javascript,${encodeURIComponent(js)}`)) as Api;
}

function parsed(text: string) {
  const checker = sourceChecker(ts, '/virtual/module.ts', text);
  const program = checker.program(text);
  const sourceFile = program.getSourceFile(checker.target);
  if (sourceFile === undefined) throw new TypeError('no source file');
  return { checker, sourceFile, mutants: findMutants(ts, sourceFile, program.getTypeChecker()) };
}

/** The module with only the loop guard: the reference a switched mutant must behave like. */
function guardedOnly(text: string): string {
  return switchMutants(ts, parsed(text).sourceFile, []).text;
}

/** What a call does: its value, or that it threw and how. */
function outcome(call: () => unknown): unknown {
  state.hits = 0;
  state.tripped = false;
  try {
    return { value: call() };
  } catch (error) {
    return { threw: error instanceof RangeError ? 'RangeError' : String(error) };
  }
}

const input = fc.record({
  list: fc.array(fc.integer({ min: -5, max: 20 }), { maxLength: 6 }),
  limit: fc.integer({ min: -5, max: 20 }),
  n: fc.integer({ min: -3, max: 120 }),
  name: fc.option(fc.constantFrom('xab', 'x', 'yab', 'xa1', ''), { nil: undefined }),
});

type Sample = { list: number[]; limit: number; n: number; name: string | undefined };

function calls(api: Api, sample: Sample) {
  return [
    outcome(() => api.tally(sample.list, sample.limit)),
    outcome(() =>
      api.label(sample.n, sample.name === undefined ? undefined : { name: sample.name }),
    ),
    outcome(() => api.steps(sample.n)),
    outcome(() => api.depth(Math.min(sample.n, 30))),
    outcome(() => api.lean(sample.n)),
    outcome(() => api.grade(sample.n)),
  ];
}

describe('every mutant of a file switched into one module', () => {
  const { checker, sourceFile, mutants } = parsed(source);
  const compiling = compilingMutants(checker, source, mutants, mutantUnits(ts, sourceFile));
  const switched = switchMutants(ts, sourceFile, compiling);

  it('places a switch for every compiling mutant of the sample', () => {
    expect(compiling.length).toBeGreaterThan(40);
    expect(switched.unswitchable).toEqual([]);
    // The emptied clauses of \`grade\` are among them: case 0, case 3 and default.
    expect(compiling.filter((mutant) => mutant.operator === 'case-removal')).toHaveLength(3);
  });

  it('behaves as the mutant written out alone, for each mutant and any input, and as the true source with none live', async () => {
    const module = await load(switched.text);
    const references = new Map<number, Api>();
    references.set(-1, await load(guardedOnly(source)));
    for (const mutant of compiling) {
      references.set(mutant.id, await load(guardedOnly(applyMutant(source, mutant))));
    }
    const ids = [-1, ...compiling.map((mutant) => mutant.id)];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ids), input, async (id, sample) => {
        state.id = id;
        const got = calls(module, sample);
        state.id = -1;
        expect(got).toEqual(calls(references.get(id) as Api, sample));
      }),
      { numRuns: 400 },
    );
  });

  it('records which mutants a call reaches, and only those', async () => {
    const module = await load(switched.text);
    state.id = -1;
    // A fresh guard: the property above may end on a call that ran a loop up to its limit.
    state.hits = 0;
    state.tripped = false;
    state.cov = new Set();
    module.depth(0);
    const reached = [...state.cov];
    state.cov = null;
    const lines = source.split('\n');
    const first = lines.findIndex((line) => line.startsWith('export function depth')) + 1;
    const inDepth = (mutant: Mutant) => mutant.line >= first && mutant.line <= first + 2;
    const depthIds = compiling.filter(inDepth).map((mutant) => mutant.id);
    expect(reached.length).toBeGreaterThan(0);
    expect(reached.every((id) => depthIds.includes(id))).toBe(true);
    // `return 1 + depth(n - 1)` is never reached when n is 0.
    const deeper = compiling
      .filter((mutant) => mutant.line === first + 2)
      .map((mutant) => mutant.id);
    expect(deeper.length).toBeGreaterThan(0);
    expect(reached.some((id) => deeper.includes(id))).toBe(false);
  });

  it('empties a case so it falls through, and a break inside a live clause still leaves the switch', async () => {
    const module = await load(switched.text);
    const emptied = (text: string) =>
      compiling.find(
        (mutant) => mutant.operator === 'case-removal' && mutant.original.startsWith(text),
      );
    const grade = (id: number, n: number) => {
      state.id = id;
      const got = module.grade(n);
      state.id = -1;
      return got;
    };
    // None live: each clause does its own work.
    expect([0, 1, 2, 3, -1].map((n) => grade(-1, n))).toEqual(['0a', '1c', '2c', '3b', '-1d']);
    // case 0 emptied falls into case 1 and 2's block; case 3 emptied falls into default.
    expect(grade((emptied("out += 'a'") as Mutant).id, 0)).toBe('0c');
    expect(grade((emptied("out += 'b'") as Mutant).id, 3)).toBe('3d');
    // The last clause emptied just ends the switch.
    expect(grade((emptied("out += 'd'") as Mutant).id, -1)).toBe('-1');
    // A live mutant elsewhere leaves the clauses alone.
    expect(grade((emptied("out += 'a'") as Mutant).id, 3)).toBe('3b');
  });

  it('stops a loop that never ends at the guard, with the hits it was allowed', async () => {
    const forever = compiling.find(
      (mutant) => mutant.operator === 'condition' && mutant.original.startsWith('value > 1'),
    );
    expect(forever?.replacement).toBeDefined();
    const module = await load(switched.text);
    state.id = (forever as Mutant).id;
    state.limit = 5_000;
    const result = outcome(() => module.steps(1));
    state.id = -1;
    state.limit = 20_000;
    expect(result).toEqual({ threw: 'RangeError' });
    expect(state.tripped).toBe(true);
    expect(state.hits).toBe(5_001);
  });
});

describe('mutants checked for compiling in groups', () => {
  it('keeps exactly the mutants that compile when checked one by one', () => {
    const typed = `${source}
export function pick(mode: 'a' | 'b', values: readonly string[]): string {
  const found = values.find((value) => value.startsWith(mode));
  return found ?? mode;
}
`;
    const { checker, sourceFile, mutants } = parsed(typed);
    const baseline = checker.errors(typed);
    const alone = mutants.filter(
      (mutant) => checker.errors(applyMutant(typed, mutant)) <= baseline,
    );
    const grouped = compilingMutants(checker, typed, mutants, mutantUnits(ts, sourceFile));
    expect(grouped.map((mutant) => mutant.id)).toEqual(alone.map((mutant) => mutant.id));
    expect(alone.length).toBeLessThan(mutants.length);
  });
});
