export type {
  ChatPrompt,
  CompletionGrammar,
  CompletionModel,
  CompletionRequest,
  CompletionResult,
  JsonSchema,
  StopReason,
} from './completion-model.js';
export type {
  ModelFetchEvent,
  ModelLocation,
  ModelPathOptions,
  ModelPathResult,
} from './config.js';
export { modelLocation, resolveModelPath } from './config.js';
export type { ContextChoice } from './context-size.js';
export { chooseContextSize } from './context-size.js';
export type { DeviceHolder, DeviceLease } from './device-lease.js';
export { deviceLeaseDirectory, openDeviceLease } from './device-lease.js';
export type { DevicePriority, DeviceScheduler, ScheduledResult } from './device-scheduler.js';
export { createDeviceScheduler } from './device-scheduler.js';
export { GrammarError } from './grammar-error.js';
export type { GpuChoice, LocalModel, LocalModelInfo, LocalModelOptions } from './local-model.js';
export { createLocalModel, defaultThreads, localModelLoads } from './local-model.js';
export type { ServedModel } from './model-client.js';
export { connectModelServer } from './model-client.js';
export type { ModelConfigProblem } from './model-config-error.js';
export { ModelConfigError, modelPathKey } from './model-config-error.js';
export { ModelDisposedError } from './model-disposed-error.js';
export type { ModelEndpoint, ModelServerHealth } from './model-endpoint.js';
export { modelEndpointPath, readModelEndpoint } from './model-endpoint.js';
export type { ModelIdentity } from './model-identity.js';
export { modelIdentity } from './model-identity.js';
export { ModelLoadError } from './model-load-error.js';
export type { ModelServeRefusal, ModelServer, ModelServerOptions } from './model-server.js';
export { serveModel } from './model-server.js';
export type {
  ModelSettingProblem,
  ModelSettings,
  ModelSettingsResult,
} from './model-settings.js';
export { resolveModelSettings } from './model-settings.js';
export type { LockHolder } from './pid-lock.js';
export { lockHolder, processAlive, releaseLock, takeLock } from './pid-lock.js';
export { PromptTooLongError } from './prompt-too-long-error.js';
export { ScriptExhaustedError } from './script-exhausted-error.js';
export type {
  RecordedRequest,
  Script,
  ScriptedModel,
  ScriptedModelOptions,
} from './scripted-model.js';
export { createScriptedModel } from './scripted-model.js';
