import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { memoryWorld } from '../__fixtures__/memory-world.js';
import { ablateMemories } from '../oracles/memory-ablation.js';
import {
  applyPrunePlan,
  proposePrunes,
  provePrunes,
  prunePlan,
  type SignedPrunePlan,
  signPrunePlan,
} from './signed-prune.js';

// a1 and a2 both answer topic a (each redundant alone, not both at once); w is harmful.
const world = memoryWorld(
  {
    a1: { topic: 'a', answer: 'yes' },
    a2: { topic: 'a', answer: 'yes' },
    b: { topic: 'b', answer: 'yes' },
    w: { topic: 'c', answer: 'no' },
    x: { topic: 'c', answer: 'yes' },
  },
  [
    { topic: 'a', expected: 'yes' },
    { topic: 'b', expected: 'yes' },
    { topic: 'b', expected: 'yes' },
    { topic: 'c', expected: 'yes' },
  ],
);

const owner = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ed25519');

async function signedPlan(): Promise<SignedPrunePlan> {
  const ablation = await ablateMemories(['a1', 'b', 'w'], world);
  const proposals = proposePrunes(ablation);
  expect(proposals).toEqual([
    { memory: 'a1', worth: 'redundant' },
    { memory: 'w', worth: 'harmful' },
  ]);
  const proof = await provePrunes(proposals, world);
  return signPrunePlan(prunePlan(proof, 'bank-seal'), owner.privateKey);
}

describe('signed pruning', () => {
  it('proposes only what a verdict backs, and proves no query turns from right to wrong', async () => {
    const plan = (await signedPlan()).plan;
    expect(plan.memories).toEqual(['a1', 'w']);
    expect(plan.proof.correctAfter).toBeGreaterThanOrEqual(plan.proof.correctBefore);
  });

  it('holds back a set whose members are harmless alone but cost accuracy together', async () => {
    const proof = await provePrunes(
      [
        { memory: 'a1', worth: 'redundant' },
        { memory: 'a2', worth: 'redundant' },
      ],
      world,
    );
    expect(proof.accepted).toEqual(['a1']);
    expect(proof.heldBack).toEqual([
      { memory: 'a2', reason: 'with the others it turns 1 query(ies) from right to wrong' },
    ]);
  });

  it('applies only with the owner’s signature', async () => {
    const signed = await signedPlan();
    const removed: string[] = [];
    const remove = async (memory: string) => {
      removed.push(memory);
    };
    expect((await applyPrunePlan({ ...signed, signature: '' }, owner.publicKey, remove)).ok).toBe(
      false,
    );
    const forged = signPrunePlan(signed.plan, stranger.privateKey);
    expect((await applyPrunePlan(forged, owner.publicKey, remove)).ok).toBe(false);
    const widened = {
      ...signed,
      plan: { ...signed.plan, memories: [...signed.plan.memories, 'b'] },
    };
    expect((await applyPrunePlan(widened, owner.publicKey, remove)).ok).toBe(false);
    expect(removed).toEqual([]);
    expect(await applyPrunePlan(signed, owner.publicKey, remove)).toEqual({
      ok: true,
      removed: ['a1', 'w'],
    });
    expect(removed).toEqual(['a1', 'w']);
  });
});
