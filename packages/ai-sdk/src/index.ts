export type { AiSdkOptions, AiSdkRecorder } from './record-ai-sdk.js';
export { recordAiSdk } from './record-ai-sdk.js';
