// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.
import { expectTypeOf } from 'vitest';
import {
  type Appraiser,
  type AppraiserOptions,
  type ControlResult,
  type FlagSwitches,
  openAppraiser,
  type ServeControl,
} from './index.js';

expectTypeOf(openAppraiser).parameters.toEqualTypeOf<[options: AppraiserOptions]>();
expectTypeOf(openAppraiser).returns.toEqualTypeOf<Appraiser>();
// One flag at a time, or on/off.
expectTypeOf<Appraiser['setAppraisal']>().parameter(0).toEqualTypeOf<'on' | 'off' | FlagSwitches>();
expectTypeOf<Appraiser['setAppraisal']>().returns.toEqualTypeOf<ControlResult>();
// A server ticks other memories, named by their folders.
expectTypeOf<ServeControl['others']>().toEqualTypeOf<
  (() => Promise<readonly string[]>) | undefined
>();
