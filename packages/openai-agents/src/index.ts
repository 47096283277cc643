export type {
  AgentsRunResult,
  OpenAIAgentsOptions,
  OpenAIAgentsRecorder,
} from './record-openai-agents.js';
export { recordOpenAIAgents, stopCauseOfError } from './record-openai-agents.js';
