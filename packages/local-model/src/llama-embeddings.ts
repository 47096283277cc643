import type { LlamaEmbeddingContext } from 'node-llama-cpp';
import type { Loaded } from './llama-load.js';
import { ModelLoadError } from './model-load-error.js';

/**
 * The embedding context's window, in tokens (at most the model's own context): a report longer
 * than this is embedded by its first tokens. A second, small context beside the completion one.
 */
export const embeddingContextTokens = 512;
/**
 * A model's embeddings: a small embedding context beside the completion one, created on first
 * use (a failure is a {@link ModelLoadError}, tried again next time).
 */
export class Embeddings {
  private context: Promise<LlamaEmbeddingContext> | undefined;

  constructor(
    private readonly path: string,
    private readonly threads: number,
  ) {}

  /** One embedding per text, in order; a text longer than the context by its first tokens. */
  async vectors(parts: Loaded, texts: readonly string[]): Promise<readonly (readonly number[])[]> {
    const context = await this.contextFor(parts);
    const room = Math.min(embeddingContextTokens, parts.info.contextSize);
    const vectors: (readonly number[])[] = [];
    for (const text of texts) {
      // The first tokens of a long text: what fits in the embedding context.
      const tokens = parts.model.tokenize(text, false).slice(0, room - 2);
      vectors.push((await context.getEmbeddingFor(tokens)).vector);
    }
    return vectors;
  }

  /** Frees the embedding context, if one was made. */
  async dispose(): Promise<void> {
    await (await this.context?.catch(() => undefined))?.dispose();
  }

  private contextFor(parts: Loaded): Promise<LlamaEmbeddingContext> {
    if (!this.context) {
      this.context = parts.model
        .createEmbeddingContext({
          contextSize: Math.min(embeddingContextTokens, parts.info.contextSize),
          threads: this.threads,
        })
        .catch((cause: unknown) => {
          this.context = undefined;
          throw new ModelLoadError(this.path, { cause });
        });
    }
    return this.context;
  }
}
