// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.

import type { Replayer } from '@mecha/appraisal-core';
import type { CompletionModel } from '@mecha/local-model';
import { expectTypeOf } from 'vitest';
import { createLocalModelReplayer } from './index.js';

expectTypeOf(createLocalModelReplayer).parameter(0).toEqualTypeOf<CompletionModel>();
expectTypeOf(createLocalModelReplayer).returns.toMatchTypeOf<Replayer>();
