import { createHash } from 'node:crypto';
import type {
  ChatPrompt,
  CompletionModel,
  CompletionRequest,
  CompletionResult,
  StopReason,
} from './completion-model.js';
import { ModelDisposedError } from './model-disposed-error.js';
import type { ModelIdentity } from './model-identity.js';
import { ScriptExhaustedError } from './script-exhausted-error.js';
import { Turns } from './turns.js';

/** The replies of a scripted model: in order, or computed from each request. */
export type Script =
  | readonly string[]
  | ((prompt: string, request: CompletionRequest) => string | Promise<string>);

/** Options of `createScriptedModel`. */
export interface ScriptedModelOptions {
  /** Names the model; its identity is the sha256 of `scripted:<name>`. Defaults to `scripted`. */
  readonly name?: string;
  /** Waits this long per emitted token, so that a test can abort mid-generation. Defaults to 0. */
  readonly msPerToken?: number;
  /**
   * Called after each emitted token with the call's count so far: a fault test aborts the
   * request's signal here to stop generation at an exact token, with no timing involved.
   */
  readonly onToken?: (emitted: number, request: RecordedRequest) => void;
  /** The context window it reports, in pseudo-tokens. Defaults to 32,768. */
  readonly contextSize?: number;
}

/** A request as the scripted model recorded it (the signal and the token and text hooks left out). */
export type RecordedRequest = Omit<CompletionRequest, 'signal' | 'onToken' | 'onText'>;

/** A stand-in `CompletionModel` for tests that returns scripted replies and records what it was asked. */
export interface ScriptedModel extends CompletionModel {
  /** Every prompt received, in order (aborted ones included). */
  readonly prompts: readonly string[];
  /** Every request received, in order, without its signal or its token and text hooks. */
  readonly requests: readonly RecordedRequest[];
  /** Pseudo-tokens emitted so far over every call: a clock in tokens for tests of preemption. */
  readonly emittedTokens: number;
}

/**
 * How the scripted model writes a `ChatPrompt` as text: a fixed, visible template, so that a
 * script function and `prompts` see exactly what the model was given.
 */
export function renderScriptedChat(prompt: string | ChatPrompt): string {
  if (typeof prompt === 'string') return prompt;
  const earlier = (prompt.earlier ?? [])
    .map((turn) => `<user>\n${turn.user}\n<assistant>\n${turn.model}\n`)
    .join('');
  return `<system>\n${prompt.system}\n${earlier}<user>\n${prompt.user}\n<assistant>\n`;
}

/** Characters per pseudo-token: roughly what a real tokenizer averages on English. */
const charsPerToken = 4;

/** Splits text into pseudo-tokens of up to four characters (whole code points). */
function pseudoTokens(text: string): string[] {
  const chars = Array.from(text);
  const tokens: string[] = [];
  for (let i = 0; i < chars.length; i += charsPerToken) {
    tokens.push(chars.slice(i, i + charsPerToken).join(''));
  }
  return tokens;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * A `CompletionModel` that returns scripted replies, for semantic tests that must not depend
 * on a real model. Replies come from `script` in order (an array; one more call than replies
 * rejects with `ScriptExhaustedError`) or from a function of the prompt.
 *
 * It behaves like the real model where tests can tell: a reply longer than `maxTokens`
 * pseudo-tokens (four characters each) is cut there with stop reason `maxTokens`; an aborted
 * signal stops it (at once, or between tokens with `msPerToken`) with stop reason `aborted`
 * and the text so far; otherwise the stop reason is `grammar` when a grammar was given and
 * `eos` when not. The grammar is recorded, not enforced: script a reply that matches it.
 * Calls run one at a time, in order, like the real model's.
 */
export function createScriptedModel(
  script: Script,
  options: ScriptedModelOptions = {},
): ScriptedModel {
  const name = options.name ?? 'scripted';
  const msPerToken = options.msPerToken ?? 0;
  const prompts: string[] = [];
  const requests: RecordedRequest[] = [];
  const turns = new Turns();
  let next = 0;
  let disposed = false;
  let emittedTokens = 0;
  const identity: ModelIdentity = {
    sha256: createHash('sha256').update(`scripted:${name}`).digest('hex'),
    bytes: 0,
    modifiedMs: 0,
  };

  async function reply(request: CompletionRequest): Promise<string> {
    if (typeof script === 'function') return script(renderScriptedChat(request.prompt), request);
    const scripted = script[next];
    if (scripted === undefined) throw new ScriptExhaustedError(script.length);
    next += 1;
    return scripted;
  }

  async function complete(request: CompletionRequest): Promise<CompletionResult> {
    const { maxTokens, signal } = request;
    if (!Number.isInteger(maxTokens) || maxTokens < 1) {
      throw new RangeError(`maxTokens must be a positive integer, got ${maxTokens}`);
    }
    if (disposed) throw new ModelDisposedError();
    const { signal: _signal, onToken: _onToken, onText: _onText, ...recorded } = request;
    const text = renderScriptedChat(request.prompt);
    prompts.push(text);
    requests.push(recorded);
    const promptTokens = 1 + pseudoTokens(text).length;
    const aborted = (): CompletionResult => ({
      text: '',
      stopReason: 'aborted',
      tokens: { prompt: promptTokens, completion: 0 },
      timings: { loadMs: 0, promptMs: 0, generationMs: 0 },
    });
    if (signal?.aborted) return aborted();
    const release = await turns.take(signal);
    if (!release) return aborted();
    try {
      const started = performance.now();
      const tokens = pseudoTokens(await reply(request));
      let replied = '';
      let emitted = 0;
      let stopReason: StopReason = request.grammar ? 'grammar' : 'eos';
      for (const token of tokens) {
        if (signal?.aborted) {
          stopReason = 'aborted';
          break;
        }
        if (emitted === maxTokens) {
          stopReason = 'maxTokens';
          break;
        }
        if (msPerToken > 0) await sleep(msPerToken, signal);
        if (signal?.aborted) {
          stopReason = 'aborted';
          break;
        }
        replied += token;
        emitted += 1;
        emittedTokens += 1;
        options.onToken?.(emitted, recorded);
        request.onToken?.(emitted);
        request.onText?.(token);
      }
      return {
        text: replied,
        stopReason,
        tokens: { prompt: promptTokens, completion: emitted },
        timings: { loadMs: 0, promptMs: 0, generationMs: performance.now() - started },
      };
    } finally {
      release();
    }
  }

  return {
    prompts,
    requests,
    get emittedTokens() {
      return emittedTokens;
    },
    identity: async () => identity,
    complete,
    countTokens: async (text) => pseudoTokens(text).length,
    contextSize: async () => options.contextSize ?? 32_768,
    async dispose() {
      disposed = true;
    },
  };
}
