// Type tests of the main entry: the signatures a harness author relies on. Checked by the
// package's typecheck (tsc --noEmit); a wrong type fails it.
import { expectTypeOf } from 'vitest';
import { type Charter, type CharterLine, type CharterResult, parseCharter } from './index.js';

expectTypeOf(parseCharter).parameters.toEqualTypeOf<[text: string]>();
expectTypeOf(parseCharter).returns.toEqualTypeOf<CharterResult>();
// A charter is its lines, in rank order.
expectTypeOf<Charter[number]>().toEqualTypeOf<CharterLine>();
