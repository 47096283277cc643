import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceChecker } from './compiling-mutants.js';
import { applyMutant, findMutants, mutationOperators } from './mutants.js';

function mutantsOf(text: string) {
  const checker = sourceChecker(ts, '/virtual/module.ts', text);
  const program = checker.program(text);
  const sourceFile = program.getSourceFile(checker.target);
  if (sourceFile === undefined) throw new TypeError('no source file');
  return { mutants: findMutants(ts, sourceFile, program.getTypeChecker()), checker };
}

const sample = `
export type Mode = 'strict' | 'loose';
export function score(a: number, b: number, on: boolean, label: string): number {
  if (a === b && on) return a * b;
  while (a < b || !on) a++;
  const named = label ?? 'none';
  return on ? -a + b : b % 2;
}
export const flag = true;
export function name(): string { return 'x' + 'y'; }
export function more(list?: number[]): number {
  let total = 0;
  total += list?.length ?? 0;
  const box = { pair: [1, 2] };
  return /^d+$/.test(String(box.pair[0])) ? total : 1;
}
export function kind(n: number): string {
  switch (n) {
    case 0:
      return 'zero';
    case 1: {
      return 'one';
    }
    case 2:
    default:
  }
  return 'many';
}
`;

describe('mutants on the syntax tree', () => {
  it('applies every operator the issue names to a source that has them all', () => {
    const { mutants } = mutantsOf(sample);
    const used = new Set(mutants.map((mutant) => mutant.operator));
    expect([...used].sort()).toEqual([...mutationOperators].sort());
  });

  it('empties each case and default that has statements, leaving a braced one to block-removal', () => {
    const { mutants } = mutantsOf(sample);
    const cases = mutants.filter((mutant) => mutant.operator === 'case-removal');
    expect(cases.map((mutant) => [mutant.original, mutant.replacement])).toEqual([
      ["return 'zero';", ''],
    ]);
    expect(
      mutants.some(
        (mutant) => mutant.operator === 'block-removal' && mutant.original.includes("'one'"),
      ),
    ).toBe(true);
  });

  it('leaves types alone and never treats string concatenation as arithmetic', () => {
    const { mutants } = mutantsOf(sample);
    // The union type's 'strict' | 'loose' members are types, not strings to empty.
    expect(mutants.some((mutant) => mutant.original === "'strict'")).toBe(false);
    // 'x' + 'y' concatenates: flipping it to '-' would not compile, so it is not proposed.
    expect(mutants.some((mutant) => mutant.line === 10 && mutant.operator === 'arithmetic')).toBe(
      false,
    );
  });

  it('reads operators from the tree, not the text: a "===" inside a string is only a string', () => {
    const { mutants } = mutantsOf(`export const rule = 'a === b && c';\n`);
    expect(mutants.map((mutant) => mutant.operator)).toEqual(['string-empty']);
  });

  it('finds nothing to mutate in a function without behaviour', () => {
    expect(mutantsOf('export function noop(): void {}\n').mutants).toEqual([]);
  });

  it('changes exactly one span per mutant, and the type check sees a broken one', () => {
    const { mutants, checker } = mutantsOf(sample);
    const baseline = checker.errors(sample);
    for (const mutant of mutants) {
      const text = applyMutant(sample, mutant);
      expect(text.slice(0, mutant.start)).toBe(sample.slice(0, mutant.start));
      expect(text.slice(mutant.start + mutant.replacement.length)).toBe(sample.slice(mutant.end));
    }
    expect(checker.errors(`${sample}\nconst broken: number = 'text';\n`)).toBeGreaterThan(baseline);
  });

  it('proposes a mutant for every comparison it is given, whatever the operands', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('===', '!==', '<', '<=', '>', '>='),
        fc.integer(),
        fc.integer(),
        (operator, left, right) => {
          const text = `export const same = (${left}) ${operator} (${right});\n`;
          const { mutants } = mutantsOf(text);
          expect(mutants.filter((mutant) => mutant.original === operator)).toHaveLength(1);
        },
      ),
      { numRuns: 40 },
    );
  });
});
