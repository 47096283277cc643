import type { AblationEvaluator } from '../oracles/memory-ablation.js';

/**
 * A small deterministic memory world for the oracle tests (a stand-in for the knowledge graph,
 * which these API-level oracles reach through an injected evaluator): each memory states an
 * answer on a topic; a query is answered from the first memory on its topic (by id) that is not
 * withheld, and is right when that answer is the held-out one.
 */
export function memoryWorld(
  memories: Readonly<Record<string, { topic: string; answer: string }>>,
  queries: readonly { topic: string; expected: string }[],
): AblationEvaluator {
  const ids = Object.keys(memories).sort();
  return async (withheld) =>
    queries.map((query) => {
      const source = ids.find((id) => !withheld.has(id) && memories[id]?.topic === query.topic);
      return source === undefined
        ? { correct: false, used: [] }
        : { correct: memories[source]?.answer === query.expected, used: [source] };
    });
}
