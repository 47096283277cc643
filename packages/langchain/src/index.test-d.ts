// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.
import { expectTypeOf } from 'vitest';
import { type LangChainOptions, type LangChainRecorder, recordLangChain } from './index.js';

expectTypeOf(recordLangChain).parameters.toEqualTypeOf<[options?: LangChainOptions]>();
expectTypeOf(recordLangChain).returns.toEqualTypeOf<LangChainRecorder>();
