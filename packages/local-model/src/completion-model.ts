import type { ModelIdentity } from './model-identity.js';

/**
 * A JSON schema in the subset node-llama-cpp turns into a grammar: `type` (object, array,
 * string, number, integer, boolean, null), `properties` (every listed property is emitted, in
 * order), `additionalProperties`, `items`/`prefixItems` with `minItems`/`maxItems`, `enum`,
 * `const`, `oneOf`/`anyOf`, string `minLength`/`maxLength` and `format`, and `$defs`/`$ref`.
 * Bound every string (`maxLength`) and array (`maxItems`): an unbounded rule lets a model
 * run until `maxTokens` and return JSON that does not parse.
 */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * The grammar a completion must match: a GBNF grammar (llama.cpp's format, root rule `root`)
 * or a JSON schema turned into one.
 */
export type CompletionGrammar = { readonly gbnf: string } | { readonly jsonSchema: JsonSchema };

/**
 * A prompt that goes through the model's own chat template: a system message, then one user
 * message, then the opening of the model's reply.
 */
export interface ChatPrompt {
  readonly system: string;
  /** Earlier turns of the same conversation, oldest first: what was asked and answered. */
  readonly earlier?: readonly { readonly user: string; readonly model: string }[];
  readonly user: string;
}

/** One completion request. */
export interface CompletionRequest {
  /**
   * Raw text fed to the model as is (a BOS token is prepended when the model asks for one), or
   * a `ChatPrompt` that the model renders through its own chat template (the GGUF's, or
   * node-llama-cpp's best match for the model when the file has none).
   */
  readonly prompt: string | ChatPrompt;
  /** Constrains every sampled token; the text then always matches the grammar unless `maxTokens` or an abort cuts it short. */
  readonly grammar?: CompletionGrammar;
  /** The most tokens to generate, at least 1. */
  readonly maxTokens: number;
  /** Aborting stops generation at the next token; the result then has stop reason `aborted`. */
  readonly signal?: AbortSignal;
  /** Sampling temperature; 0 (the default) is greedy decoding, the same text for the same prompt. */
  readonly temperature?: number;
  /** Seeds sampling when `temperature` is above 0. */
  readonly seed?: number;
  /**
   * Penalises tokens repeated within the last 64 (1 is none; 1.1 is mild), so a small model does
   * not loop on a phrase. Tokens that are only punctuation, digits or whitespace are never
   * penalised: a JSON grammar needs its quotes and braces again and again. Off by default.
   */
  readonly repeatPenalty?: number;
  /**
   * Called as tokens are generated, with the number generated so far: progress for long
   * replies. Aborting the signal from here stops generation at the next token.
   */
  readonly onToken?: (completionTokens: number) => void;
  /**
   * Called with each piece of the generated text as it is produced (after `onToken` for the same
   * tokens): the pieces, joined, are the result's `text`. Under a grammar every piece is already
   * constrained; text a stop trigger holds back (a JSON schema's closing newlines) never arrives.
   */
  readonly onText?: (text: string) => void;
}

/**
 * Why generation ended:
 * - `eos`: the model emitted an end-of-generation token (no grammar was given);
 * - `grammar`: the grammar was matched completely (the end token is then the only one allowed);
 * - `maxTokens`: `maxTokens` tokens were generated;
 * - `aborted`: the request's signal was aborted (before or during generation).
 */
export type StopReason = 'eos' | 'grammar' | 'maxTokens' | 'aborted';

/** What a completion returned. */
export interface CompletionResult {
  /** The generated text, without the prompt and without the end token. */
  readonly text: string;
  readonly stopReason: StopReason;
  readonly tokens: {
    /** Tokens of the prompt as evaluated, BOS included. */
    readonly prompt: number;
    /**
     * Tokens that make up `text`: the end token and a grammar's stop trigger (a JSON-schema
     * grammar's closing newlines, decoded but cut from the text) are not counted.
     */
    readonly completion: number;
  };
  readonly timings: {
    /** Time this call waited for the model to load: 0 once it is loaded. */
    readonly loadMs: number;
    /** From the start of this call's turn to its first generated token (prompt evaluation and the first sample). */
    readonly promptMs: number;
    /** From the first generated token to the end of generation. */
    readonly generationMs: number;
  };
}

/**
 * What mecha asks of a completion model. Both the real local model (`createLocalModel`) and
 * the scripted stand-in for tests (`createScriptedModel`) implement it.
 */
export interface CompletionModel {
  /** The model's identity: for a GGUF file, the sha256 of its bytes (hashed once, cached). */
  identity(): Promise<ModelIdentity>;
  /** Generates one completion. Calls run one at a time, in order. */
  complete(request: CompletionRequest): Promise<CompletionResult>;
  /**
   * Tokens `text` takes in this model (without BOS), so a caller can bound a prompt in the
   * model's own tokens rather than characters. Optional for other implementations.
   */
  countTokens?(text: string): Promise<number>;
  /** The context window in tokens: prompt and completion together must fit. Optional likewise. */
  contextSize?(): Promise<number>;
  /**
   * One embedding vector per text, in order, from the same model (optional): what recall ranks
   * reports by when a model is loaded. Vectors of one model compare by cosine similarity.
   */
  embed?(texts: readonly string[]): Promise<readonly (readonly number[])[]>;
  /** Frees the model; later calls to `complete` reject. */
  dispose(): Promise<void>;
}
