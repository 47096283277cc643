import { availableParallelism } from 'node:os';
import type {
  ChatPrompt,
  CompletionModel,
  CompletionRequest,
  CompletionResult,
} from './completion-model.js';
import { Embeddings } from './llama-embeddings.js';
import { emptyResult, generateCompletion } from './llama-generate.js';
import { GrammarCache } from './llama-grammars.js';
import { type Loaded, loadLlama } from './llama-load.js';
import { ModelDisposedError } from './model-disposed-error.js';
import { type ModelIdentity, modelIdentity } from './model-identity.js';
import { Turns } from './turns.js';

export { localModelLoads } from './llama-load.js';

/** Which compute backend node-llama-cpp may use. */
export type GpuChoice = 'auto' | false | 'cuda' | 'vulkan' | 'metal';

/** How to load a local GGUF model. */
export interface LocalModelOptions {
  /** The GGUF file (see `resolveModelPath` for `[model] path`). */
  readonly path: string;
  /**
   * CPU threads for decoding. Defaults to `os.availableParallelism()`. Never more than the
   * machine's cores: node-llama-cpp's own default is at least 4, and on a 2-core machine that
   * makes every token, grammar-constrained ones most of all, a hundred times slower.
   */
  readonly threads?: number;
  /**
   * `'auto'` (the default) uses CUDA, Vulkan or Metal when a matching node-llama-cpp binary
   * is installed and a device is present, else the CPU; `false` forces the CPU.
   */
  readonly gpu?: GpuChoice;
  /**
   * Model layers offloaded to the GPU: a count, `'max'`, or `'auto'` (the default: as many as
   * fit). Ignored on the CPU.
   */
  readonly gpuLayers?: number | 'auto' | 'max';
  /**
   * Context window in tokens (prompt and completion together), as `[model] context_size` asks.
   * A hard cap at the model's trained context: more than the model supports gives the trained
   * context instead, with a warning in `LocalModelInfo.warnings`.
   */
  readonly contextSize?: number;
  /**
   * The context used when `contextSize` is absent: a caller's own default (distillation asks for
   * 16,384), quietly capped at the trained context. Defaults to 8192.
   */
  readonly defaultContextSize?: number;
  /** The least severe llama.cpp log level printed. Defaults to `'error'`. */
  readonly logLevel?: 'disabled' | 'fatal' | 'error' | 'warn' | 'info' | 'log' | 'debug';
}

/** What loading found: the backend, threads and context actually used, and how long it took. */
export interface LocalModelInfo {
  readonly loadMs: number;
  /** The GPU backend in use, or `false` on the CPU. */
  readonly gpu: string | false;
  readonly threads: number;
  readonly contextSize: number;
  /** The context length the model was trained with. */
  readonly trainContextSize: number;
  /** The chat template prompts go through: the GGUF's own, or node-llama-cpp's match for it. */
  readonly chatWrapper: string;
  /** What a person should know about the load (a context asked for past the trained one), in words. */
  readonly warnings: readonly string[];
}

/** The real local model: a `CompletionModel` over a GGUF file, loaded on first use. */
export interface LocalModel extends CompletionModel {
  readonly path: string;
  /** Loads the model now (the first `complete` does so otherwise); calls share one load. */
  load(): Promise<LocalModelInfo>;
  /** Tokens `text` takes in this model, without BOS. */
  countTokens(text: string): Promise<number>;
  /** The context window in use, in tokens. */
  contextSize(): Promise<number>;
  /** A chat prompt as the model's template renders it, and how many tokens it takes. */
  renderChat(prompt: ChatPrompt): Promise<{ readonly text: string; readonly tokens: number }>;
  /**
   * One embedding per text, in order, from a small embedding context beside the completion one
   * (created on first use): a text longer than 512 tokens by its first 510.
   * Takes the model's turn like a completion.
   */
  embed(texts: readonly string[]): Promise<readonly (readonly number[])[]>;
}

/** The default thread count: the CPUs this process may use. */
export function defaultThreads(): number {
  return Math.max(1, availableParallelism());
}

/** Resolves with `promise`'s value, or with `undefined` as soon as `signal` aborts. */
async function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
  if (!signal) return promise;
  let onAbort: () => void = () => {};
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * A local GGUF model through node-llama-cpp. Nothing is imported or loaded until `load()` or
 * the first `complete()`: node-llama-cpp is imported with a dynamic `import()` then, so
 * importing `@mecha/local-model` stays cheap. Nothing here touches the network: binaries are
 * never built or downloaded (`build: 'never'`), only installed prebuilt ones are used.
 */
export function createLocalModel(options: LocalModelOptions): LocalModel {
  const threads = options.threads ?? defaultThreads();
  if (!Number.isInteger(threads) || threads < 1) {
    throw new RangeError(`threads must be a positive integer, got ${threads}`);
  }
  const path = options.path;
  const turns = new Turns();
  const grammars = new GrammarCache();
  let loading: Promise<Loaded> | undefined;
  let ready: Loaded | undefined;
  const embeddings = new Embeddings(path, threads);
  let disposed = false;

  function loaded(): Promise<Loaded> {
    if (disposed) return Promise.reject(new ModelDisposedError());
    if (!loading) {
      loading = loadLlama(options, threads).then(
        (parts) => {
          ready = parts;
          return parts;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
    }
    return loading;
  }

  async function complete(request: CompletionRequest): Promise<CompletionResult> {
    const { maxTokens, signal } = request;
    if (!Number.isInteger(maxTokens) || maxTokens < 1) {
      throw new RangeError(`maxTokens must be a positive integer, got ${maxTokens}`);
    }
    if (disposed) throw new ModelDisposedError();
    const called = performance.now();
    if (signal?.aborted) return emptyResult('aborted', 0);
    const wasReady = ready !== undefined;
    // An abort while the model loads returns at once; the load goes on for later calls.
    const parts = await untilAborted(loaded(), signal);
    const loadMs = wasReady ? 0 : performance.now() - called;
    if (!parts) return emptyResult('aborted', loadMs);
    const release = await turns.take(signal);
    if (!release) return emptyResult('aborted', loadMs);
    try {
      if (disposed) throw new ModelDisposedError();
      return await generateCompletion(parts, request, loadMs, grammars);
    } finally {
      release();
    }
  }

  async function embed(texts: readonly string[]): Promise<readonly (readonly number[])[]> {
    if (disposed) throw new ModelDisposedError();
    const parts = await loaded();
    const release = await turns.take();
    try {
      if (disposed) throw new ModelDisposedError();
      return await embeddings.vectors(parts, texts);
    } finally {
      release?.();
    }
  }

  return {
    path,
    load: async () => (await loaded()).info,
    embed,
    countTokens: async (text) => (await loaded()).model.tokenize(text, false).length,
    contextSize: async () => (await loaded()).info.contextSize,
    renderChat: async (prompt) => {
      const parts = await loaded();
      return { text: parts.renderChat(prompt), tokens: parts.chatTokens(prompt).length };
    },
    identity: (): Promise<ModelIdentity> => modelIdentity(path),
    complete,
    async dispose() {
      if (disposed) return;
      disposed = true;
      const parts = await loading?.catch(() => undefined);
      if (!parts) return;
      // Let a running completion reach its end before freeing what it uses.
      const release = await turns.take();
      try {
        parts.completion.dispose();
        await embeddings.dispose();
        await parts.context.dispose();
        await parts.model.dispose();
        await parts.llama.dispose();
      } finally {
        release?.();
      }
    },
  };
}
