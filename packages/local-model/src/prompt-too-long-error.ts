import { errorBrand, errorGuard, MechaError } from '@mecha/errors';

const promptBrand = errorBrand('PromptTooLongError');

/** The prompt and `maxTokens` together do not fit the context: refused before any decoding. */
export class PromptTooLongError extends MechaError {
  readonly [promptBrand] = true;

  constructor(
    readonly promptTokens: number,
    readonly maxTokens: number,
    readonly contextSize: number,
  ) {
    super(
      `The prompt (${promptTokens} tokens) and maxTokens (${maxTokens}) exceed the model context of ${contextSize} tokens; shorten the prompt or lower maxTokens.`,
    );
    this.name = 'PromptTooLongError';
  }

  static override isInstance = errorGuard<PromptTooLongError>('PromptTooLongError');
}
