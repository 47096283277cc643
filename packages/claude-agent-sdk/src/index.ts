export type {
  ClaudeAgentSdkOptions,
  ClaudeAgentSdkRecorder,
  ClaudeCanUseTool,
  ClaudeHookCallback,
  ClaudeHookEvent,
  ClaudeHookInput,
  ClaudeHooks,
  ClaudePermissionResult,
  ClaudeQuery,
  ClaudeQueryOptions,
} from './record-claude-agent-sdk.js';
export { recordClaudeAgentSdk } from './record-claude-agent-sdk.js';
