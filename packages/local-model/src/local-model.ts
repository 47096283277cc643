import { availableParallelism } from 'node:os';
import type {
  Llama,
  LlamaCompletion,
  LlamaContext,
  LlamaContextSequence,
  LlamaEmbeddingContext,
  LlamaGrammar,
  LlamaModel,
  Token,
} from 'node-llama-cpp';
import type {
  ChatPrompt,
  CompletionGrammar,
  CompletionModel,
  CompletionRequest,
  CompletionResult,
  StopReason,
} from './completion-model.js';
import { chooseContextSize } from './context-size.js';
import { GrammarError } from './grammar-error.js';
import { ModelDisposedError } from './model-disposed-error.js';
import { type ModelIdentity, modelIdentity } from './model-identity.js';
import { ModelLoadError } from './model-load-error.js';
import { PromptTooLongError } from './prompt-too-long-error.js';
import { Turns } from './turns.js';

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

const defaultMaxContext = 8192;
let modelLoads = 0;

/** How many models this process has loaded (a model server reports it: 1 means loaded once). */
export function localModelLoads(): number {
  return modelLoads;
}

/**
 * The embedding context's window, in tokens (at most the model's own context): a report longer
 * than this is embedded by its first tokens. A second, small context beside the completion one.
 */
export const embeddingContextTokens = 512;
const grammarCacheSize = 32;

interface Loaded {
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

function emptyResult(stopReason: StopReason, loadMs: number, promptTokens = 0): CompletionResult {
  return {
    text: '',
    stopReason,
    tokens: { prompt: promptTokens, completion: 0 },
    timings: { loadMs, promptMs: 0, generationMs: 0 },
  };
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

const structuralCache = new WeakMap<LlamaModel, Map<Token, boolean>>();

/** Whether a token is only punctuation, digits or whitespace (never repeat-penalised). */
function structural(model: LlamaModel, token: Token): boolean {
  let cache = structuralCache.get(model);
  if (cache === undefined) {
    cache = new Map();
    structuralCache.set(model, cache);
  }
  let known = cache.get(token);
  if (known === undefined) {
    known = /^[\s\p{P}\p{S}\d]*$/u.test(model.detokenize([token]));
    cache.set(token, known);
  }
  return known;
}

function grammarKey(grammar: CompletionGrammar): string {
  return 'gbnf' in grammar
    ? `gbnf\0${grammar.gbnf}`
    : `json\0${JSON.stringify(grammar.jsonSchema)}`;
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
  const grammars = new Map<string, Promise<LlamaGrammar>>();
  let loading: Promise<Loaded> | undefined;
  let ready: Loaded | undefined;
  let embedding: Promise<LlamaEmbeddingContext> | undefined;
  let disposed = false;

  async function loadNow(): Promise<Loaded> {
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
      const chatTokens = (prompt: ChatPrompt): Token[] =>
        chatText(prompt).tokenize(model.tokenizer);
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

  function loaded(): Promise<Loaded> {
    if (disposed) return Promise.reject(new ModelDisposedError());
    if (!loading) {
      loading = loadNow().then(
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

  function grammarFor(parts: Loaded, grammar: CompletionGrammar): Promise<LlamaGrammar> {
    const key = grammarKey(grammar);
    let cached = grammars.get(key);
    if (!cached) {
      const kind = 'gbnf' in grammar ? 'gbnf' : 'jsonSchema';
      cached = (async () => {
        try {
          // Both parse the grammar now (a JSON schema becomes GBNF first) and throw on a bad one.
          return 'gbnf' in grammar
            ? await parts.llama.createGrammar({ grammar: grammar.gbnf })
            : await parts.llama.createGrammarForJsonSchema(
                grammar.jsonSchema as Parameters<Llama['createGrammarForJsonSchema']>[0],
              );
        } catch (cause) {
          throw new GrammarError(kind, { cause });
        }
      })();
      cached.catch(() => grammars.delete(key));
      grammars.set(key, cached);
      if (grammars.size > grammarCacheSize) {
        const oldest = grammars.keys().next().value;
        if (oldest !== undefined) grammars.delete(oldest);
      }
    }
    return cached;
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
      return await generate(parts, request, loadMs);
    } finally {
      release();
    }
  }

  async function generate(
    parts: Loaded,
    request: CompletionRequest,
    loadMs: number,
  ): Promise<CompletionResult> {
    if (disposed) throw new ModelDisposedError();
    const { model, completion, info } = parts;
    const { signal, maxTokens } = request;
    const turnStarted = performance.now();
    // Tokenized as LlamaCompletion would, so the count is exactly what is evaluated. It adds
    // the BOS itself, so one that a chat template wrote is taken off first.
    const bos = model.tokens.shouldPrependBosToken ? model.tokens.bos : null;
    let input: Token[];
    if (typeof request.prompt === 'string') {
      input = model.tokenize(request.prompt, false, bos !== null ? 'trimLeadingSpace' : undefined);
    } else {
      input = parts.chatTokens(request.prompt);
      if (bos !== null && input[0] === bos) input = input.slice(1);
    }
    const promptTokens = input.length + (bos === null ? 0 : 1);
    if (promptTokens + maxTokens > info.contextSize) {
      throw new PromptTooLongError(promptTokens, maxTokens, info.contextSize);
    }
    const grammar = request.grammar ? await grammarFor(parts, request.grammar) : undefined;
    if (signal?.aborted) return emptyResult('aborted', loadMs, promptTokens);

    let completionTokens = 0;
    let firstToken: number | undefined;
    let response: Awaited<ReturnType<LlamaCompletion['generateCompletionWithMeta']>>;
    try {
      response = await completion.generateCompletionWithMeta(input, {
        maxTokens,
        ...(grammar ? { grammar } : {}),
        ...(signal ? { signal, stopOnAbortSignal: true } : {}),
        temperature: request.temperature ?? 0,
        ...(request.seed === undefined ? {} : { seed: request.seed }),
        disableContextShift: true,
        // A repeat penalty, when asked for, spares structural tokens: a JSON grammar needs its
        // quotes, braces and commas again and again, and penalising them breaks the reply.
        repeatPenalty:
          request.repeatPenalty === undefined || request.repeatPenalty === 1
            ? false
            : {
                penalty: request.repeatPenalty,
                lastTokens: 64,
                penalizeNewLine: false,
                punishTokensFilter: (tokens: Token[]) =>
                  tokens.filter((token) => !structural(model, token)),
              },
        onToken: (tokens) => {
          firstToken ??= performance.now();
          completionTokens += tokens.length;
          request.onToken?.(completionTokens);
        },
      });
    } catch (error) {
      // An abort before the first token throws the signal's reason instead of returning.
      if (signal?.aborted) return emptyResult('aborted', loadMs, promptTokens);
      throw error;
    }
    const ended = performance.now();
    const reason = response.metadata.stopReason;
    const stopReason: StopReason =
      reason === 'abort'
        ? 'aborted'
        : reason === 'maxTokens'
          ? 'maxTokens'
          : reason === 'stopGenerationTrigger' || grammar
            ? 'grammar'
            : 'eos';
    const first = firstToken ?? ended;
    return {
      text: response.response,
      stopReason,
      tokens: { prompt: promptTokens, completion: completionTokens },
      timings: { loadMs, promptMs: first - turnStarted, generationMs: ended - first },
    };
  }

  function embeddingContext(parts: Loaded): Promise<LlamaEmbeddingContext> {
    if (!embedding) {
      embedding = parts.model
        .createEmbeddingContext({
          contextSize: Math.min(embeddingContextTokens, parts.info.contextSize),
          threads,
        })
        .catch((cause: unknown) => {
          embedding = undefined;
          throw new ModelLoadError(path, { cause });
        });
    }
    return embedding;
  }

  async function embed(texts: readonly string[]): Promise<readonly (readonly number[])[]> {
    if (disposed) throw new ModelDisposedError();
    const parts = await loaded();
    const release = await turns.take();
    try {
      if (disposed) throw new ModelDisposedError();
      const context = await embeddingContext(parts);
      const room = Math.min(embeddingContextTokens, parts.info.contextSize);
      const vectors: (readonly number[])[] = [];
      for (const text of texts) {
        // The first tokens of a long text: what fits in the embedding context.
        const tokens = parts.model.tokenize(text, false).slice(0, room - 2);
        vectors.push((await context.getEmbeddingFor(tokens)).vector);
      }
      return vectors;
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
        await (await embedding?.catch(() => undefined))?.dispose();
        await parts.context.dispose();
        await parts.model.dispose();
        await parts.llama.dispose();
      } finally {
        release?.();
      }
    },
  };
}
