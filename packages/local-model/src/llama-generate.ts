import type { LlamaCompletion, LlamaModel, Token } from 'node-llama-cpp';
import type { CompletionRequest, CompletionResult, StopReason } from './completion-model.js';
import type { GrammarCache } from './llama-grammars.js';
import type { Loaded } from './llama-load.js';
import { PromptTooLongError } from './prompt-too-long-error.js';

/** The result of a completion that generated nothing. */
export function emptyResult(
  stopReason: StopReason,
  loadMs: number,
  promptTokens = 0,
): CompletionResult {
  return {
    text: '',
    stopReason,
    tokens: { prompt: promptTokens, completion: 0 },
    timings: { loadMs, promptMs: 0, generationMs: 0 },
  };
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

/**
 * One completion on a loaded model, the caller holding the model's turn: the prompt tokenized
 * (through the chat template for a chat prompt), checked against the context, then generated
 * under the request's grammar, sampling and signal, with token counts and timings.
 */
export async function generateCompletion(
  parts: Loaded,
  request: CompletionRequest,
  loadMs: number,
  grammars: GrammarCache,
): Promise<CompletionResult> {
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
  const grammar = request.grammar ? await grammars.get(parts.llama, request.grammar) : undefined;
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
      ...(request.onText ? { onTextChunk: request.onText } : {}),
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
