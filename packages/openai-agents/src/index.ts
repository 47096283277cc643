export type {
  AgentsRunResult,
  OpenAIAgentsOptions,
  OpenAIAgentsRecorder,
} from './record-openai-agents.js';
export { recordOpenAIAgents } from './record-openai-agents.js';
