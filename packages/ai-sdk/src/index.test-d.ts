// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.
import { expectTypeOf } from 'vitest';
import { type AiSdkOptions, type AiSdkRecorder, recordAiSdk } from './index.js';

expectTypeOf(recordAiSdk).parameters.toEqualTypeOf<[options?: AiSdkOptions]>();
expectTypeOf(recordAiSdk).returns.toEqualTypeOf<AiSdkRecorder>();
