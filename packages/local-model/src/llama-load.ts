import type {
  Llama,
  LlamaCompletion,
  LlamaContext,
  LlamaContextSequence,
  LlamaModel,
  Token,
} from 'node-llama-cpp';
import type { ChatPrompt } from './completion-model.js';
import { chooseContextSize } from './context-size.js';
import type { LocalModelInfo, LocalModelOptions } from './local-model.js';
import { ModelLoadError } from './model-load-error.js';

const defaultMaxContext = 8192;
let modelLoads = 0;

/** How many models this process has loaded (a model server reports it: 1 means loaded once). */
export function localModelLoads(): number {
  return modelLoads;
}

/** A loaded model: node-llama-cpp's parts, and what loading found. */
export interface Loaded {
  readonly info: LocalModelInfo;
  readonly llama: Llama;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  readonly sequence: LlamaContextSequence;
  readonly completion: LlamaCompletion;
  /** Renders a chat prompt through the model's chat template into tokens. */
  readonly chatTokens: (prompt: ChatPrompt) => Token[];
  /** The same rendering as text. */
  readonly renderChat: (prompt: ChatPrompt) => string;
}

/**
 * Imports node-llama-cpp (dynamically, so importing the package stays cheap) and loads the GGUF
 * at `options.path` with one context and sequence of the chosen size. Never builds or downloads
 * a binary; any failure is a {@link ModelLoadError}, with llama disposed.
 */
export async function loadLlama(options: LocalModelOptions, threads: number): Promise<Loaded> {
  const path = options.path;
  const started = performance.now();
  const { getLlama, LlamaCompletion, LlamaLogLevel, resolveChatWrapper } = await import(
    'node-llama-cpp'
  );
  let llama: Llama;
  try {
    llama = await getLlama({
      gpu: options.gpu ?? 'auto',
      build: 'never',
      skipDownload: true,
      progressLogs: false,
      maxThreads: threads,
      logLevel: LlamaLogLevel[options.logLevel ?? 'error'],
    });
  } catch (cause) {
    throw new ModelLoadError(path, { cause });
  }
  try {
    const model = await llama.loadModel({
      modelPath: path,
      ...(options.gpuLayers === undefined ? {} : { gpuLayers: options.gpuLayers }),
    });
    const trainContextSize = model.trainContextSize;
    const chosen = chooseContextSize(
      options.contextSize,
      options.defaultContextSize ?? defaultMaxContext,
      trainContextSize,
    );
    const warnings = chosen.warning === undefined ? [] : [chosen.warning];
    const contextSize = chosen.size;
    const context = await model.createContext({
      contextSize,
      threads,
      sequences: 1,
    });
    const sequence = context.getSequence();
    const completion = new LlamaCompletion({ contextSequence: sequence });
    // The GGUF's own template when it has one, else node-llama-cpp's match for the model.
    const wrapper = resolveChatWrapper(model);
    const chatText = (prompt: ChatPrompt) =>
      wrapper.generateContextState({
        chatHistory: [
          { type: 'system', text: prompt.system },
          ...(prompt.earlier ?? []).flatMap((turn) => [
            { type: 'user' as const, text: turn.user },
            { type: 'model' as const, response: [turn.model] },
          ]),
          { type: 'user', text: prompt.user },
          { type: 'model', response: [] },
        ],
      }).contextText;
    const chatTokens = (prompt: ChatPrompt): Token[] => chatText(prompt).tokenize(model.tokenizer);
    const renderChat = (prompt: ChatPrompt): string => chatText(prompt).toString();
    modelLoads += 1;
    const info: LocalModelInfo = {
      loadMs: performance.now() - started,
      gpu: llama.gpu,
      threads: context.currentThreads,
      contextSize: context.contextSize,
      trainContextSize,
      chatWrapper: wrapper.wrapperName,
      warnings,
    };
    return { info, llama, model, context, sequence, completion, chatTokens, renderChat };
  } catch (cause) {
    await llama.dispose().catch(() => {});
    throw new ModelLoadError(path, { cause });
  }
}
