export type {
  LangChainOptions,
  LangChainRecorder,
  MechaCallbackHandler,
} from './record-langchain.js';
export { recordLangChain, stopOfError } from './record-langchain.js';
