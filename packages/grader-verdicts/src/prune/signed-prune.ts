import { createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import { z } from 'zod';
import { canonicalJson } from '../drift/canonical-json.js';
import type { AblationEvaluator, MemoryAblation } from '../oracles/memory-ablation.js';

/** A memory a verdict says can go: redundant (nothing lost) or harmful (removal helps). */
export interface PruneProposal {
  readonly memory: string;
  readonly worth: 'redundant' | 'harmful';
}

/**
 * Proposes only what a measured verdict backs; keep, weak and unmeasured memories stay. Harmful
 * memories come first, so the queries their removal puts right are guarded while the redundant
 * ones are proved.
 */
export function proposePrunes(ablation: readonly MemoryAblation[]): PruneProposal[] {
  const proposals = ablation.flatMap((result) =>
    result.worth === 'redundant' || result.worth === 'harmful'
      ? [{ memory: result.memory, worth: result.worth }]
      : [],
  );
  return [
    ...proposals.filter((proposal) => proposal.worth === 'harmful'),
    ...proposals.filter((proposal) => proposal.worth === 'redundant'),
  ];
}

/** What the sealed bank showed: which proposals can go, which were held back and why. */
export interface PruneProof {
  readonly accepted: readonly string[];
  readonly heldBack: readonly { readonly memory: string; readonly reason: string }[];
  readonly queries: number;
  readonly correctBefore: number;
  readonly correctAfter: number;
}

function regressions(
  before: readonly { correct: boolean }[],
  after: readonly { correct: boolean }[],
): number {
  return before.filter((outcome, index) => outcome.correct && after[index]?.correct !== true)
    .length;
}

/**
 * Proves on the sealed bank that the removal flips no query from right to wrong: each proposal
 * alone, then the set built up one at a time, so an interaction that costs accuracy is held
 * back rather than applied. A query counts as right when it was right before any removal or
 * with the removals already accepted, so a later proposal cannot undo what an earlier one put
 * right.
 */
export async function provePrunes(
  proposals: readonly PruneProposal[],
  evaluate: AblationEvaluator,
): Promise<PruneProof> {
  const baseline = await evaluate(new Set());
  const accepted: string[] = [];
  const heldBack: { memory: string; reason: string }[] = [];
  let last = baseline;
  for (const { memory } of proposals) {
    const alone = regressions(baseline, await evaluate(new Set([memory])));
    if (alone > 0) {
      heldBack.push({ memory, reason: `alone it turns ${alone} query(ies) from right to wrong` });
      continue;
    }
    const together = await evaluate(new Set([...accepted, memory]));
    const lost = regressions(
      baseline.map((outcome, index) => ({
        correct: outcome.correct || last[index]?.correct === true,
      })),
      together,
    );
    if (lost > 0) {
      heldBack.push({
        memory,
        reason: `with the others it turns ${lost} query(ies) from right to wrong`,
      });
      continue;
    }
    accepted.push(memory);
    last = together;
  }
  return {
    accepted,
    heldBack,
    queries: baseline.length,
    correctBefore: baseline.filter((outcome) => outcome.correct).length,
    correctAfter: last.filter((outcome) => outcome.correct).length,
  };
}

/** Which knowledge graph a plan was proved on, and how each memory is taken out of it. */
export interface PrunePlanGraph {
  /** The digest of the graph the proof ran on; applying refuses any other state. */
  readonly digest: string;
  /** Each memory of the plan as the episode key the graph's redaction takes out. */
  readonly removals: readonly {
    readonly memory: string;
    readonly source: string;
    readonly sourceId: string;
  }[];
}

/** A plan to remove memories: the proof, and the seal of the bank it was proved on. */
export interface PrunePlan {
  readonly v: 1;
  readonly memories: readonly string[];
  readonly proof: PruneProof;
  readonly bankSeal: string;
  /** Present when the memories are a knowledge graph's episodes (`mecha verdicts prune --graph`). */
  readonly graph?: PrunePlanGraph;
}

/** Builds the plan from a proof: exactly the accepted memories. */
export function prunePlan(proof: PruneProof, bankSeal: string, graph?: PrunePlanGraph): PrunePlan {
  return {
    v: 1,
    memories: [...proof.accepted],
    proof,
    bankSeal,
    ...(graph === undefined ? {} : { graph }),
  };
}

/** A plan with the owner's Ed25519 signature over its canonical JSON. */
export interface SignedPrunePlan {
  readonly plan: PrunePlan;
  readonly signature: string;
}

/** Signs a plan with the owner's private key (a KeyObject or PEM); only the owner holds it. */
export function signPrunePlan(plan: PrunePlan, privateKey: KeyObject | string): SignedPrunePlan {
  return {
    plan,
    signature: sign(null, Buffer.from(canonicalJson(plan)), privateKey).toString('base64'),
  };
}

/** What applying gave: the memories removed, or the refusal. */
export type ApplyResult = Either<Refusal<'rejected'>, readonly string[]>;

/**
 * Whether a signed plan verifies under the owner's public key, over the plan exactly as given
 * (an edited plan, a missing signature or another key's signature does not).
 */
export function verifyPrunePlan(
  signed: SignedPrunePlan,
  ownerPublicKey: KeyObject | string,
): boolean {
  if (typeof signed.signature !== 'string' || signed.signature === '') return false;
  try {
    return verify(
      null,
      Buffer.from(canonicalJson(signed.plan)),
      typeof ownerPublicKey === 'string' || ownerPublicKey.type !== 'public'
        ? createPublicKey(ownerPublicKey)
        : ownerPublicKey,
      Buffer.from(signed.signature, 'base64'),
    );
  } catch {
    return false;
  }
}

/**
 * Applies a signed plan: the signature is verified against the owner's public key over the
 * plan as given, and only then is `remove` called, once per memory of the plan. No signature,
 * a wrong key or an edited plan: nothing is removed.
 */
export async function applyPrunePlan(
  signed: SignedPrunePlan,
  ownerPublicKey: KeyObject | string,
  remove: (memory: string) => Promise<void>,
): Promise<ApplyResult> {
  if (typeof signed.signature !== 'string' || signed.signature === '') {
    return left(refusal('rejected', 'the plan is not signed: pruning needs the owner’s signature'));
  }
  if (!verifyPrunePlan(signed, ownerPublicKey)) {
    return left(refusal('rejected', 'the signature does not verify under the owner’s key'));
  }
  const removed: string[] = [];
  for (const memory of signed.plan.memories) {
    await remove(memory);
    removed.push(memory);
  }
  return right(removed);
}

/** The JSON shape of a prune plan, for reading one from a file. */
export const prunePlanSchema = z.object({
  v: z.literal(1),
  memories: z.array(z.string()),
  proof: z.object({
    accepted: z.array(z.string()),
    heldBack: z.array(z.object({ memory: z.string(), reason: z.string() })),
    queries: z.number(),
    correctBefore: z.number(),
    correctAfter: z.number(),
  }),
  bankSeal: z.string(),
  graph: z
    .object({
      digest: z.string(),
      removals: z.array(z.object({ memory: z.string(), source: z.string(), sourceId: z.string() })),
    })
    .optional(),
});

/** The JSON shape of a signed prune plan, for reading one from a file. */
export const signedPrunePlanSchema = z.object({
  plan: prunePlanSchema,
  signature: z.string(),
});
