import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import {
  type ChatPrompt,
  type CompletionModel,
  type CompletionRequest,
  type CompletionResult,
  ModelConfigError,
  ModelDisposedError,
  ModelLoadError,
  PromptTooLongError,
} from '@mecha/local-model';
import type { DistillOptions, ModelSource } from './distill-options.js';
import type { DistillStop } from './distill-report.js';

/** Why a call to the model gave no completion (`message`), and whether the run must stop. */
export interface CompletionRefusal extends Refusal<'call_failed'> {
  readonly stop?: DistillStop;
  /** Set when the same call would fail the same way on every try. */
  readonly repeats?: boolean;
}

/** A completion, or why there is none. */
export type Completion = Either<CompletionRefusal, CompletionResult>;

const failed = (message: string, more: Omit<CompletionRefusal, 'kind' | 'message'> = {}) =>
  left({ ...refusal('call_failed', message), ...more });

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The run's model: made on the first call that needs it (and disposed at the end when this run
 * made it), counting calls. A model that cannot load, or is gone, stops the run; an aborted call
 * stops it too; a reply cut at the token budget only fails its session.
 */
export class ModelAccess {
  calls = 0;
  /** What `meta.distilled_by` names, once the model is loaded. */
  distilledBy: string | undefined;
  private model: CompletionModel | undefined;
  private owned = false;

  constructor(
    private readonly source: ModelSource,
    private readonly options: Pick<DistillOptions, 'modelName' | 'signal'>,
  ) {}

  private async ready(): Promise<CompletionModel | DistillStop> {
    if (this.model !== undefined) return this.model;
    try {
      const source = this.source;
      if (typeof source === 'function') {
        this.model = await source();
        this.owned = true;
      } else {
        this.model = source;
      }
      this.distilledBy = this.options.modelName ?? `sha256:${(await this.model.identity()).sha256}`;
      return this.model;
    } catch (error) {
      return {
        reason: 'model_unavailable',
        message: `the local model cannot be used: ${messageOf(error)}`,
      };
    }
  }

  /**
   * The model's name as `distilledBy` spells it, or why the model cannot be used: made (loaded)
   * when no call has made it yet.
   */
  async identify(): Promise<string | DistillStop> {
    const ready = await this.ready();
    if ('reason' in ready) return ready;
    return this.distilledBy ?? 'unknown';
  }

  /**
   * How the loaded model measures text: its context window and a token counter, or undefined
   * when the model offers neither (then transcripts are bounded in characters alone).
   */
  async measure(): Promise<
    | { readonly contextSize: number; readonly countTokens: (text: string) => Promise<number> }
    | undefined
  > {
    const ready = await this.ready();
    if ('reason' in ready) return undefined;
    if (ready.countTokens === undefined || ready.contextSize === undefined) return undefined;
    const count = ready.countTokens.bind(ready);
    return { contextSize: await ready.contextSize(), countTokens: (text) => count(text) };
  }

  async complete(
    prompt: string | ChatPrompt,
    request: Required<Pick<CompletionRequest, 'grammar' | 'maxTokens'>>,
  ): Promise<Completion> {
    const ready = await this.ready();
    if ('reason' in ready) return failed(ready.message, { stop: ready });
    this.calls += 1;
    const signal = this.options.signal;
    try {
      const result = await ready.complete({
        prompt,
        grammar: request.grammar,
        maxTokens: request.maxTokens,
        // Mild, and never on punctuation: enough that a small model does not loop on a phrase.
        repeatPenalty: 1.1,
        ...(signal === undefined ? {} : { signal }),
      });
      if (result.stopReason === 'aborted') {
        return failed('aborted', { stop: { reason: 'aborted', message: 'stopped on request' } });
      }
      if (result.stopReason === 'maxTokens') {
        return failed(`the reply ran past ${request.maxTokens} tokens`, { repeats: true });
      }
      return right(result);
    } catch (error) {
      const fatal =
        ModelLoadError.isInstance(error) ||
        ModelDisposedError.isInstance(error) ||
        ModelConfigError.isInstance(error);
      return failed(messageOf(error), {
        ...(PromptTooLongError.isInstance(error) ? { repeats: true } : {}),
        ...(fatal
          ? {
              stop: {
                reason: 'model_unavailable' as const,
                message: `the local model cannot be used: ${messageOf(error)}`,
              },
            }
          : {}),
      });
    }
  }

  /** Disposes the model when this run made it. */
  async dispose(): Promise<void> {
    if (this.owned) await this.model?.dispose();
  }
}
