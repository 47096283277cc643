// Type tests of the main entry: the signatures a harness author relies on. Checked by the
// package's typecheck (tsc --noEmit); a wrong type fails it.
import { expectTypeOf } from 'vitest';
import {
  type Reading,
  readValue,
  renderBrief,
  type SituationBrief,
  type SituationInput,
} from './index.js';

expectTypeOf(readValue<number>).returns.toEqualTypeOf<Reading<number>>();
expectTypeOf(renderBrief).parameters.toEqualTypeOf<[input: SituationInput]>();
expectTypeOf(renderBrief).returns.toEqualTypeOf<SituationBrief>();
