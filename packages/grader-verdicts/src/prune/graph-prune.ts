import type { KeyObject } from 'node:crypto';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import { GraderInputError } from '../errors/grader-input-error.js';
import {
  type AblationEvaluator,
  ablateMemories,
  type MemoryAblation,
} from '../oracles/memory-ablation.js';
import {
  type GraphSnapshot,
  graphDigest,
  graphEvaluator,
  plantGraphPoison,
  snapshotGraph,
} from './graph-memory.js';
import type { GraphAccess, MemoryGraphRedaction } from './graph-port.js';
import type { SealedQueryBank } from './memory-query-bank.js';
import {
  applyPrunePlan,
  type PrunePlan,
  type PruneProof,
  type PruneProposal,
  proposePrunes,
  provePrunes,
  prunePlan,
  type SignedPrunePlan,
  verifyPrunePlan,
} from './signed-prune.js';

/** One episode's ablation, with the key it has in the graph. */
export interface GraphMemoryAblation extends MemoryAblation {
  readonly source: string;
  readonly sourceId: string;
}

/** What `planGraphPrune` found: every memory's worth, what it proposes, and the proof. */
export interface GraphPrunePlanReport {
  readonly graph: string;
  readonly digest: string;
  readonly bankSeal: string;
  readonly queries: number;
  readonly refusedQueries: SealedQueryBank['refused'];
  /** The planted poison must be found harmful, or no verdict of this run counts. */
  readonly selfTest: { readonly seesHarm: boolean; readonly reason: string };
  readonly ablation: readonly GraphMemoryAblation[];
  readonly proposals: readonly PruneProposal[];
  readonly proof: PruneProof | null;
  /** The plan to sign; null when the self-test failed (nothing is proposed then). */
  readonly plan: PrunePlan | null;
  /** How many graph copies were measured. */
  readonly evaluations: number;
}

async function selfTest(
  snapshot: GraphSnapshot,
  bank: SealedQueryBank,
  evaluate: AblationEvaluator,
  graph: GraphAccess,
): Promise<GraphPrunePlanReport['selfTest']> {
  const baseline = await evaluate(new Set());
  const target = baseline.findIndex((outcome) => outcome.correct);
  const query = bank.queries[target];
  if (query === undefined) {
    return {
      seesHarm: false,
      reason: 'no held-out query is answered right: the oracle cannot show harm, so it abstains',
    };
  }
  const poisoned = await plantGraphPoison(snapshot, query, graph);
  const [result] = await ablateMemories(
    [poisoned.poison],
    graphEvaluator(poisoned, bank.queries, graph),
  );
  return result?.worth === 'harmful'
    ? { seesHarm: true, reason: `a planted poison on query ${query.id} was found harmful` }
    : {
        seesHarm: false,
        reason: `a planted poison on query ${query.id} was graded ${result?.worth ?? 'nothing'}, not harmful`,
      };
}

/**
 * Measures what every memory (episode) of a real graph file is worth on a sealed bank of
 * held-out queries, and plans the removals a verdict backs: redundant or harmful memories whose
 * removal, alone and together, turns no query from right to wrong. It works on a private
 * snapshot; the graph file is only read. The plan still needs the owner's signature. `graph`
 * is how the graph is reached (with @mecha/graph: its openGraphStore and snapshotGraphFile).
 */
export async function planGraphPrune(
  graphPath: string,
  bank: SealedQueryBank,
  graph: GraphAccess,
): Promise<GraphPrunePlanReport> {
  if (bank.queries.length === 0) {
    throw new GraderInputError(
      'bank',
      'the query bank has no query with an independent basis: nothing can be measured',
    );
  }
  const snapshot = await snapshotGraph(graphPath, graph);
  try {
    const evaluate = graphEvaluator(snapshot, bank.queries, graph);
    const seen = await selfTest(snapshot, bank, evaluate, graph);
    const keyOf = new Map(snapshot.memories.map((memory) => [memory.memory, memory]));
    const ablation = (
      await ablateMemories(
        snapshot.memories.map((memory) => memory.memory),
        evaluate,
      )
    ).map((result) => ({
      ...result,
      source: keyOf.get(result.memory)?.source ?? '',
      sourceId: keyOf.get(result.memory)?.sourceId ?? '',
    }));
    const proposals = seen.seesHarm ? proposePrunes(ablation) : [];
    const proof = seen.seesHarm ? await provePrunes(proposals, evaluate) : null;
    const plan =
      proof === null
        ? null
        : prunePlan(proof, bank.seal, {
            digest: snapshot.digest,
            removals: proof.accepted.map((memory) => ({
              memory,
              source: keyOf.get(memory)?.source ?? '',
              sourceId: keyOf.get(memory)?.sourceId ?? '',
            })),
          });
    return {
      graph: graphPath,
      digest: snapshot.digest,
      bankSeal: bank.seal,
      queries: bank.queries.length,
      refusedQueries: bank.refused,
      selfTest: seen,
      ablation,
      proposals,
      proof,
      plan,
      evaluations: evaluate.evaluations(),
    };
  } finally {
    snapshot.dispose();
  }
}

/** One episode a signed graph plan took out: its memory, its key in the graph, the redaction. */
export interface GraphPruneRemoval {
  readonly memory: string;
  readonly source: string;
  readonly sourceId: string;
  readonly report: MemoryGraphRedaction;
}

/**
 * What applying a signed graph plan did: the episodes taken out, or why nothing was
 * (`rejected`: the signature; `unreadable`: the graph file could not be copied; `refused`: the
 * plan, the bank or the graph does not back it).
 */
export type GraphApplyResult = Either<
  Refusal<'rejected' | 'unreadable' | 'refused'>,
  { readonly removed: readonly GraphPruneRemoval[] }
>;

/**
 * Applies a signed graph plan, or refuses and changes nothing. In order: the owner's signature
 * over the plan as given; a plan made for a graph; the bank's seal; the graph's digest (the
 * graph has not changed since the proof); and a fresh measurement on a new snapshot: every
 * memory of the plan must still be redundant or harmful, and removing them all must still turn
 * no query from right to wrong. Only then is each episode taken out with the graph's own
 * redaction. The graph's digest is read once more on the real file just before; the
 * redactions themselves are not one transaction with it. A graph file that cannot be copied
 * (missing, not a graph) is refused with the graph's reason.
 */
export async function applyGraphPrune(
  graphPath: string,
  signed: SignedPrunePlan,
  ownerPublicKey: KeyObject | string,
  bank: SealedQueryBank,
  graph: GraphAccess,
): Promise<GraphApplyResult> {
  if (!verifyPrunePlan(signed, ownerPublicKey)) {
    return left(
      refusal(
        'rejected',
        signed.signature === ''
          ? 'the plan is not signed: pruning needs the owner’s signature'
          : 'the signature does not verify under the owner’s key',
      ),
    );
  }
  const { plan } = signed;
  const target = plan.graph;
  if (target === undefined) {
    return left(refusal('refused', 'the plan was not made for a knowledge graph'));
  }
  const removals = new Map(target.removals.map((removal) => [removal.memory, removal]));
  if (plan.memories.some((memory) => !removals.has(memory))) {
    return left(refusal('refused', 'the plan names a memory it gives no episode key for'));
  }
  if (plan.bankSeal !== bank.seal) {
    return left(
      refusal('refused', 'the query bank is not the one the plan was proved on (its seal differs)'),
    );
  }
  let snapshot: GraphSnapshot;
  try {
    snapshot = await snapshotGraph(graphPath, graph);
  } catch (error) {
    if (GraderInputError.isInstance(error)) return left(refusal('unreadable', error.message));
    throw error;
  }
  try {
    if (snapshot.digest !== target.digest) {
      return left(
        refusal(
          'refused',
          'the graph has changed since the plan was proved: plan again and sign the new plan',
        ),
      );
    }
    const evaluate = graphEvaluator(snapshot, bank.queries, graph);
    const ablation = await ablateMemories(plan.memories, evaluate);
    const unbacked = ablation.filter(
      (result) => result.worth !== 'redundant' && result.worth !== 'harmful',
    );
    if (unbacked.length > 0) {
      return left(
        refusal(
          'refused',
          `no verdict backs removing ${unbacked.map((result) => `${result.memory} (${result.worth})`).join(', ')}`,
        ),
      );
    }
    const proof = await provePrunes(proposePrunes(ablation), evaluate);
    if (proof.heldBack.length > 0) {
      return left(
        refusal(
          'refused',
          `removing the plan would cost accuracy: ${proof.heldBack.map((held) => `${held.memory}: ${held.reason}`).join('; ')}`,
        ),
      );
    }
  } finally {
    snapshot.dispose();
  }
  const store = await graph.openGraph(graphPath);
  const removed: GraphPruneRemoval[] = [];
  try {
    // Measuring again took a while: a write that landed meanwhile is caught here, leaving only
    // the moments between this read and the redactions unguarded.
    if ((await graphDigest(store)) !== target.digest) {
      return left(
        refusal(
          'refused',
          'the graph has changed since the plan was proved: plan again and sign the new plan',
        ),
      );
    }
    const applied = await applyPrunePlan(signed, ownerPublicKey, async (memory) => {
      const removal = removals.get(memory);
      if (removal === undefined) return;
      const report = await store.redact({ source: removal.source, source_id: removal.sourceId });
      removed.push({ ...removal, report });
    });
    return applied._tag === 'Right' ? right({ removed }) : left(applied.left);
  } finally {
    await store.close();
  }
}
