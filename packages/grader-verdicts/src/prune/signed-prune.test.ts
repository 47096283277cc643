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
  // Harmful first: what its removal puts right is guarded while the rest are proved.
  expect(proposals).toEqual([
    { memory: 'w', worth: 'harmful' },
    { memory: 'a1', worth: 'redundant' },
  ]);
  const proof = await provePrunes(proposals, world);
  return signPrunePlan(prunePlan(proof, 'bank-seal'), owner.privateKey);
}

describe('signed pruning', () => {
  it('proposes only what a verdict backs, and proves no query turns from right to wrong', async () => {
    const plan = (await signedPlan()).plan;
    expect(plan.memories).toEqual(['w', 'a1']);
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

  it('does not let a later removal undo what an earlier one put right', async () => {
    // w is wrong about c and x is right; the query about c is wrong before anything goes,
    // right once w goes, and wrong again if x goes too.
    const proof = await provePrunes(
      [
        { memory: 'w', worth: 'harmful' },
        { memory: 'x', worth: 'redundant' },
      ],
      world,
    );
    expect(proof.accepted).toEqual(['w']);
    expect(proof.heldBack).toEqual([
      { memory: 'x', reason: 'with the others it turns 1 query(ies) from right to wrong' },
    ]);
    expect(proof).toMatchObject({ correctBefore: 3, correctAfter: 4 });
  });

  it('applies only with the owner’s signature', async () => {
    const signed = await signedPlan();
    const removed: string[] = [];
    const remove = async (memory: string) => {
      removed.push(memory);
    };
    expect((await applyPrunePlan({ ...signed, signature: '' }, owner.publicKey, remove))._tag).toBe(
      'Left',
    );
    const forged = signPrunePlan(signed.plan, stranger.privateKey);
    expect((await applyPrunePlan(forged, owner.publicKey, remove))._tag).toBe('Left');
    const widened = {
      ...signed,
      plan: { ...signed.plan, memories: [...signed.plan.memories, 'b'] },
    };
    expect((await applyPrunePlan(widened, owner.publicKey, remove))._tag).toBe('Left');
    expect(removed).toEqual([]);
    expect(await applyPrunePlan(signed, owner.publicKey, remove)).toEqual({
      _tag: 'Right',
      right: ['w', 'a1'],
    });
    expect(removed).toEqual(['w', 'a1']);
  });
});
