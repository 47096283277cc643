/** The context window a model is created with, and what a person should hear about it. */
export interface ContextChoice {
  /** Tokens of context, prompt and completion together. */
  readonly size: number;
  /** Set when the size asked for was over what the model was trained with. */
  readonly warning?: string;
}

/**
 * The context size is a hard cap at the model's trained context:
 * - `asked` (`[model] context_size`) is used when it fits the trained context; when it asks for
 *   more, the trained context is used instead and a warning says so;
 * - with nothing asked, `fallback` is used, quietly capped at the trained context (a caller's
 *   default is not the user's request, so there is nothing to warn about).
 */
export function chooseContextSize(
  asked: number | undefined,
  fallback: number,
  trainContextSize: number,
): ContextChoice {
  if (asked === undefined) return { size: Math.min(fallback, trainContextSize) };
  if (asked <= trainContextSize) return { size: asked };
  return {
    size: trainContextSize,
    warning: `the context size asked for (${asked} tokens) is more than the model supports (${trainContextSize}, the context it was trained with): ${trainContextSize} is used`,
  };
}
