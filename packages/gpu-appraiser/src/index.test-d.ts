// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.
import { expectTypeOf } from 'vitest';
import { type Appraiser, type AppraiserOptions, openAppraiser } from './index.js';

expectTypeOf(openAppraiser).parameters.toEqualTypeOf<[options: AppraiserOptions]>();
expectTypeOf(openAppraiser).returns.toEqualTypeOf<Appraiser>();
