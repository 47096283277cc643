import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GraderInputError } from '../errors/grader-input-error.js';
import { planMutation } from './mutation-plan.js';
import { transpile } from './workspace.js';

// `xs[i]` is `number | undefined` only under noUncheckedIndexedAccess: forcing the guard's
// condition to false returns it as a number, which that option rejects and the grader's own
// defaults accept.
const source = `export function pick(xs: number[], i: number): number {
  const v = xs[i];
  return v === undefined ? -1 : v;
}
export const first = [1, 2, 3].map((n) => n * 2);
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mecha-plan-'));
  writeFileSync(join(dir, 'pick.ts'), source);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  delete (globalThis as { __mechaSwitch?: unknown }).__mechaSwitch;
});

const forced = (plan: Awaited<ReturnType<typeof planMutation>>, list: 'mutants' | 'invalid') =>
  plan[list].filter(
    (mutant) => mutant.original === 'v === undefined' && mutant.replacement === 'false',
  );

describe('planMutation', () => {
  it('type-checks with the grader defaults, or with the compiler options of a tsconfig', async () => {
    const lenient = await planMutation(join(dir, 'pick.ts'));
    expect(forced(lenient, 'mutants')).toHaveLength(1);
    expect(forced(lenient, 'invalid')).toHaveLength(0);

    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, noUncheckedIndexedAccess: true } }),
    );
    const strict = await planMutation(join(dir, 'pick.ts'), {
      tsconfig: join(dir, 'tsconfig.json'),
    });
    expect(forced(strict, 'mutants')).toHaveLength(0);
    expect(forced(strict, 'invalid')).toHaveLength(1);
    // The same mutants are found; only the verdict of the type check moves.
    const count = (plan: typeof strict) =>
      plan.mutants.length + plan.invalid.length + plan.unswitchable.length;
    expect(count(strict)).toBe(count(lenient));
  });

  it('numbers mutants from firstId, and every id is switched in the instrumented module', async () => {
    const plan = await planMutation(join(dir, 'pick.ts'), { firstId: 1000 });
    const ids = [...plan.mutants, ...plan.invalid, ...plan.unswitchable].map((m) => m.id);
    expect(Math.min(...ids)).toBe(1000);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Math.max(...ids)).toBe(1000 + ids.length - 1);

    // Each runnable mutant, switched on, changes what the module does or leaves it equal; the
    // condition forced false makes pick return undefined off the end of the list.
    const state = {
      id: -1,
      limit: Number.POSITIVE_INFINITY,
      hits: 0,
      tripped: false,
      cov: new Set<number>(),
      a(...reached: number[]) {
        for (const id of reached) state.cov.add(id);
        return state.id;
      },
      t() {
        state.hits += 1;
      },
    };
    (globalThis as { __mechaSwitch?: unknown }).__mechaSwitch = state;
    const js = transpile(ts, plan.instrumented, 'pick.ts');
    const module = (await import(`data:text/javascript,${encodeURIComponent(js)}`)) as {
      pick(xs: number[], i: number): number | undefined;
    };
    expect(module.pick([5], 3)).toBe(-1);
    expect([...state.cov]).toEqual(
      expect.arrayContaining(forced(plan, 'mutants').map((m) => m.id)),
    );
    state.id = (forced(plan, 'mutants')[0] as { id: number }).id;
    expect(module.pick([5], 3)).toBeUndefined();
    expect(readFileSync(join(dir, 'pick.ts'), 'utf8')).toBe(source);
  });

  it('names the file it cannot read, and a tsconfig it cannot read', async () => {
    await expect(planMutation(join(dir, 'absent.ts'))).rejects.toThrow(GraderInputError);
    await expect(
      planMutation(join(dir, 'pick.ts'), { tsconfig: join(dir, 'absent.json') }),
    ).rejects.toThrow(/absent\.json/);
  });
});
