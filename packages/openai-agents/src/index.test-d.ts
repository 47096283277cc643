// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.
import { expectTypeOf } from 'vitest';
import {
  type OpenAIAgentsOptions,
  type OpenAIAgentsRecorder,
  recordOpenAIAgents,
} from './index.js';

expectTypeOf(recordOpenAIAgents).parameters.toEqualTypeOf<[options?: OpenAIAgentsOptions]>();
expectTypeOf(recordOpenAIAgents).returns.toEqualTypeOf<OpenAIAgentsRecorder>();
