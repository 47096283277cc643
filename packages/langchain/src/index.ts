export type { LangChainOptions, LangChainRecorder } from './record-langchain.js';
export { recordLangChain } from './record-langchain.js';
