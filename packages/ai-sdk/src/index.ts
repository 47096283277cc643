export type {
  AiAbortEvent,
  AiFinishEvent,
  AiMiddleware,
  AiSdkOptions,
  AiSdkRecorder,
  AiSdkRun,
  AiStartEvent,
  AiStepEvent,
} from './record-ai-sdk.js';
export { ownerDecisions, recordAiSdk } from './record-ai-sdk.js';
export type { AiFinishReason } from './stop-cause.js';
export { stopCauseFor } from './stop-cause.js';
