// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md),
// checked against the SDK's own types (tsc --noEmit); a wrong type fails it.
import { type CanUseTool, type Options, query } from '@anthropic-ai/claude-agent-sdk';
import { expectTypeOf } from 'vitest';
import {
  type ClaudeAgentSdkOptions,
  type ClaudeAgentSdkRecorder,
  recordClaudeAgentSdk,
} from './index.js';

expectTypeOf(recordClaudeAgentSdk).parameters.toEqualTypeOf<[options?: ClaudeAgentSdkOptions]>();
expectTypeOf(recordClaudeAgentSdk).returns.toEqualTypeOf<ClaudeAgentSdkRecorder>();

const mecha = recordClaudeAgentSdk();
// The hooks fit the SDK's `hooks` option, and the wrapped callback keeps the SDK's own type.
expectTypeOf(mecha.hooks).toMatchTypeOf<NonNullable<Options['hooks']>>();
declare const askOwner: CanUseTool;
expectTypeOf(mecha.canUseTool(askOwner)).toEqualTypeOf<CanUseTool>();
// `mecha.query` takes the SDK's `query` and returns the SDK's own `Query`.
expectTypeOf(mecha.query(query, { prompt: 'Hi.' })).toEqualTypeOf<ReturnType<typeof query>>();
