import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { findEscapeHatches } from './escape-hatches.js';

const hatches = (text: string) =>
  findEscapeHatches(ts, ts.createSourceFile('fix.ts', text, ts.ScriptTarget.Latest, true)).map(
    (hatch) => `${hatch.line}:${hatch.kind}`,
  );

describe('the escape-hatch finder', () => {
  it('finds each mute button where it is', () => {
    expect(
      hatches(
        [
          '// @ts-nocheck',
          'const a: any = 1;',
          '// @ts-ignore',
          'const b: number = "x";',
          '/* @ts-expect-error */ const c: number = "y";',
          'const d = (a as unknown as string).length;',
          'const e = <string>(<unknown>a);',
          'function f(...rest: Array<any>) { return rest; }',
        ].join('\n'),
      ),
    ).toEqual([
      '1:@ts-nocheck',
      '2:any',
      '3:@ts-ignore',
      '5:@ts-expect-error',
      '6:as unknown as',
      '7:as unknown as',
      '8:any',
    ]);
  });

  it('does not mistake words in strings, templates or prose comments for mute buttons', () => {
    expect(
      hatches(
        [
          "const rule = 'never // @ts-ignore, never any';",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text under test
          'const note = `as unknown as ${rule}`;',
          '// we do not use @ts-ignore here',
          'const many = { any: 1 };',
          'const u = (rule as unknown);',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('never flags text that is only inside a string literal', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('@ts-ignore', 'any', 'as unknown as', '// ', '/* ', '*/', 'x')),
        (words) => {
          const literal = JSON.stringify(words.join(' '));
          expect(hatches(`export const text = ${literal};\n`)).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
