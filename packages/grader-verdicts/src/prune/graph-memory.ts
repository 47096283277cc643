import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson } from '../drift/canonical-json.js';
import { GraderInputError } from '../errors/grader-input-error.js';
import type { AblationEvaluator, QueryOutcome } from '../oracles/memory-ablation.js';
import type { GraphAccess, MemoryGraph, MemoryGraphFact } from './graph-port.js';
import type { MemoryQuery } from './memory-query-bank.js';

/** One memory of the graph: an episode (one distilled session, one note), by its source key. */
export interface GraphMemory {
  /** `e` + the episode id, as the plan names it. */
  readonly memory: string;
  readonly source: string;
  readonly sourceId: string;
}

/**
 * A private, consistent copy of a graph file that every measurement runs on; the real file is
 * only read (through the graph's own consistent snapshot), never written.
 */
export interface GraphSnapshot {
  readonly path: string;
  /** Current (not redacted) episodes: the memories that can be ablated. */
  readonly memories: readonly GraphMemory[];
  /** sha256 over every episode and fact as the graph reports them: what a plan is proved on. */
  readonly digest: string;
  /** Removes the copy and everything measured beside it. */
  dispose(): void;
}

async function pages<T>(
  read: (offset: number) => Promise<{ items: readonly T[]; next_offset: number | null }>,
): Promise<T[]> {
  const all: T[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page = await read(offset);
    all.push(...page.items);
    offset = page.next_offset;
  }
  return all;
}

/**
 * The graph's state as its own reads report it: every episode (tombstones too) and every fact
 * in every status, with its support. Two files with the same digest answer every query alike.
 */
export async function graphDigest(store: MemoryGraph): Promise<string> {
  const episodes = (
    await pages((offset) => store.episodes({ include_redacted: true, offset, limit: 100 }))
  ).map((episode) => [
    episode.id,
    episode.source,
    episode.source_id,
    episode.version,
    episode.content_hash,
    episode.status,
  ]);
  const facts = (await pages((offset) => store.search({ status: 'all', offset, limit: 100 }))).map(
    (fact) => [
      fact.id,
      fact.status,
      fact.subject,
      fact.predicate,
      fact.object,
      fact.provenance.support_count,
    ],
  );
  const byId = (left: unknown[], right: unknown[]) => Number(left[0]) - Number(right[0]);
  return createHash('sha256')
    .update(canonicalJson({ episodes: episodes.sort(byId), facts: facts.sort(byId) }))
    .digest('hex');
}

/**
 * Takes a consistent snapshot of a graph file into a private folder (through the graph's
 * `snapshotGraphFile`, so a writer elsewhere neither blocks it nor tears it) and lists the
 * memories and the digest. A file the graph cannot copy (missing, not a graph) is a
 * GraderInputError with the graph's reason, and nothing is created in its place.
 */
export async function snapshotGraph(graphPath: string, graph: GraphAccess): Promise<GraphSnapshot> {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-prune-'));
  const path = join(dir, 'snapshot.db');
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  try {
    try {
      await graph.snapshotGraphFile(graphPath, path);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new GraderInputError(graphPath, reason, { cause: error });
    }
    let store: MemoryGraph;
    try {
      store = await graph.openGraph(path);
    } catch (error) {
      throw new GraderInputError(
        graphPath,
        `${graphPath} is not a graph this version can read: ${(error as Error).message}`,
        { cause: error },
      );
    }
    try {
      const memories = (await pages((offset) => store.episodes({ offset, limit: 100 })))
        .map((episode) => ({
          memory: `e${episode.id}`,
          source: episode.source,
          sourceId: episode.source_id,
          id: episode.id,
        }))
        .sort((left, right) => left.id - right.id)
        .map(({ id: _id, ...memory }) => memory);
      return { path, memories, digest: await graphDigest(store), dispose };
    } finally {
      await store.close();
    }
  } catch (error) {
    dispose();
    throw error;
  }
}

function normalize(value: string): string {
  return value.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The episodes behind a fact, as memory ids (all of them, up to kg_get's cap of 100). */
async function supportOf(store: MemoryGraph, fact: MemoryGraphFact): Promise<string[]> {
  let episodes = fact.provenance.episodes;
  if (fact.provenance.support_count > episodes.length) {
    const detail = await store.get({ fact_id: fact.id });
    if (detail.type === 'fact') episodes = detail.provenance.episodes;
  }
  return episodes.map((episode) => `e${episode.episode_id}`);
}

/**
 * Answers one held-out query from the graph's current beliefs: the objects of the current facts
 * about `subject` with `predicate`. It is right only when they say exactly one thing and that
 * is the expected answer; two beliefs that disagree answer nothing. No model reads anything.
 */
export async function answerQuery(store: MemoryGraph, query: MemoryQuery): Promise<QueryOutcome> {
  const predicate = normalize(query.predicate);
  const facts = (
    await pages((offset) => store.search({ subject: query.subject, offset, limit: 100 }))
  ).filter((fact) => normalize(fact.predicate) === predicate);
  const answers = new Set(facts.map((fact) => normalize(fact.object)));
  const used: string[] = [];
  for (const fact of facts) used.push(...(await supportOf(store, fact)));
  return {
    correct: answers.size === 1 && answers.has(normalize(query.expected)),
    used: [...new Set(used)],
  };
}

/**
 * The ablation evaluator over a real graph: for each set of memories to withhold it copies the
 * snapshot, takes those episodes out with the graph's own redaction (exactly what pruning
 * would do), answers every query and throws the copy away. Results are kept per withheld set.
 */
export function graphEvaluator(
  snapshot: Pick<GraphSnapshot, 'path' | 'memories'>,
  queries: readonly MemoryQuery[],
  graph: Pick<GraphAccess, 'openGraph'>,
): AblationEvaluator & { readonly evaluations: () => number } {
  const byMemory = new Map(snapshot.memories.map((memory) => [memory.memory, memory]));
  const cache = new Map<string, Promise<readonly QueryOutcome[]>>();
  let count = 0;
  const evaluate = async (withheld: ReadonlySet<string>) => {
    const key = [...withheld].sort().join('\0');
    const known = cache.get(key);
    if (known !== undefined) return known;
    const result = (async () => {
      count += 1;
      const copy = `${snapshot.path}.eval-${count}.db`;
      copyFileSync(snapshot.path, copy);
      const store = await graph.openGraph(copy);
      try {
        for (const memory of withheld) {
          const known = byMemory.get(memory);
          if (known !== undefined)
            await store.redact({ source: known.source, source_id: known.sourceId });
        }
        const outcomes: QueryOutcome[] = [];
        for (const query of queries) outcomes.push(await answerQuery(store, query));
        return outcomes;
      } finally {
        await store.close();
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${copy}${suffix}`, { force: true });
      }
    })();
    cache.set(key, result);
    return result;
  };
  return Object.assign(evaluate, { evaluations: () => count });
}

/** The source the planted poison is written under; a real memory never uses it. */
export const plantedPoisonSource = 'mecha-verdicts:planted-poison';

/**
 * Plants a real poisonous memory in a copy of the snapshot: an episode that asserts a second,
 * wrong answer to `query`, so the query no longer has one answer. Returns the poisoned
 * snapshot (sharing the original's folder) with the poison listed among its memories.
 */
export async function plantGraphPoison(
  snapshot: Pick<GraphSnapshot, 'path' | 'memories'>,
  query: MemoryQuery,
  graph: Pick<GraphAccess, 'openGraph'>,
): Promise<{ readonly path: string; readonly memories: GraphMemory[]; readonly poison: string }> {
  const path = `${snapshot.path}.poisoned.db`;
  copyFileSync(snapshot.path, path);
  const store = await graph.openGraph(path);
  try {
    const wrong = `planted poison ${createHash('sha256').update(query.expected).digest('hex').slice(0, 12)}`;
    const result = await store.upsert({
      kind: 'note',
      source: plantedPoisonSource,
      source_id: query.id,
      occurred_at: '2000-01-01',
      body: 'a planted poison for the ablation self-test',
      meta: { relations: [{ subject: query.subject, predicate: query.predicate, object: wrong }] },
    });
    const poison = `e${result.episode_id}`;
    return {
      path,
      memories: [
        ...snapshot.memories,
        { memory: poison, source: plantedPoisonSource, sourceId: query.id },
      ],
      poison,
    };
  } finally {
    await store.close();
  }
}
