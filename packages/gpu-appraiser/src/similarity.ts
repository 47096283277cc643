import { wordOverlap } from './word-overlap.js';

/** How recall measured similarity: the loaded model's embeddings, or word overlap without one. */
export type SimilarityMethod = 'embedding' | 'word_overlap';

/** Embeds texts with one model: one vector per text, in order (a `LocalModel` is one). */
export interface Embedder {
  embed(texts: readonly string[]): Promise<readonly (readonly number[])[]>;
}

/**
 * The cosine similarity of two embeddings in millionths, negative similarity as 0 (unrelated):
 * 1,000,000 for vectors pointing the same way. 0 when either is empty or all zeros, or their
 * lengths differ (vectors of two models never compare).
 */
export function cosineMillionths(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  if (aa === 0 || bb === 0 || !Number.isFinite(dot / Math.sqrt(aa * bb))) return 0;
  const cosine = Math.min(1, dot / Math.sqrt(aa * bb));
  return cosine <= 0 ? 0 : Math.round(cosine * 1_000_000);
}

/**
 * An embedder that remembers the last `size` texts it embedded (a report's text does not change
 * for its version), so that recall embeds each report once per open memory, not once per query.
 */
export function cachedEmbedder(embedder: Embedder, size = 4096): Embedder {
  const known = new Map<string, readonly number[]>();
  return {
    async embed(texts) {
      // This call's answers are gathered first: remembering may forget some of them again.
      const answers = new Map<string, readonly number[]>();
      for (const text of texts) {
        const vector = known.get(text);
        if (vector) answers.set(text, vector);
      }
      const missing = [...new Set(texts.filter((text) => !answers.has(text)))];
      if (missing.length > 0) {
        const vectors = await embedder.embed(missing);
        if (vectors.length !== missing.length) {
          throw new Error(
            `the embedder answered ${vectors.length} vectors for ${missing.length} texts`,
          );
        }
        missing.forEach((text, at) => {
          const vector = vectors[at] as readonly number[];
          answers.set(text, vector);
          known.set(text, vector);
          if (known.size > size) {
            const oldest = known.keys().next().value;
            if (oldest !== undefined) known.delete(oldest);
          }
        });
      }
      return texts.map((text) => answers.get(text) ?? []);
    },
  };
}

/** The similarity recall ranks by, which method it is, and why the fallback ran, if it did. */
export interface RecallSimilarity {
  readonly method: SimilarityMethod;
  /** Set when an embedder was there but failed: word overlap ran instead, for this reason. */
  readonly fallback?: string;
  readonly similarity: (query: string, text: string) => number;
}

function messageOf(error: unknown): string {
  const parts: string[] = [];
  for (let at: unknown = error; at instanceof Error && parts.length < 4; at = at.cause) {
    parts.push(at.message);
  }
  return parts.length > 0 ? parts.join(': ') : String(error);
}

/**
 * Similarity for one query over `texts`: cosine similarity of the embedder's vectors when there
 * is an embedder, else (and when embedding fails, with the reason) word overlap, the documented
 * fallback. Both are in millionths, so the similarity floor reads the same way for either.
 */
export async function recallSimilarity(
  embedder: Embedder | undefined,
  query: string,
  texts: readonly string[],
): Promise<RecallSimilarity> {
  if (!embedder) return { method: 'word_overlap', similarity: wordOverlap };
  let vectors: readonly (readonly number[])[];
  try {
    vectors = await embedder.embed([query, ...texts]);
  } catch (error) {
    return {
      method: 'word_overlap',
      fallback: `embedding failed: ${messageOf(error)}`,
      similarity: wordOverlap,
    };
  }
  const queryVector = vectors[0] ?? [];
  const byText = new Map<string, number>();
  texts.forEach((text, at) => {
    byText.set(text, cosineMillionths(queryVector, vectors[at + 1] ?? []));
  });
  return {
    method: 'embedding',
    // Measured for this query over these texts only: another text is 0, never guessed.
    similarity: (_query, text) => byText.get(text) ?? 0,
  };
}
