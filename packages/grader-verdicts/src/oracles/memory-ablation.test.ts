import { describe, expect, it } from 'vitest';
import { memoryWorld } from '../__fixtures__/memory-world.js';
import { type AblationEvaluator, ablateMemories, poisonSelfTest } from './memory-ablation.js';

const world = memoryWorld(
  {
    'm1-port': { topic: 'port', answer: '5432' },
    'm2-port-copy': { topic: 'port', answer: '5432' },
    'm3-lock': { topic: 'lock', answer: 'flock' },
    'm0-wrong-retry': { topic: 'retry', answer: 'never' },
    'm4-retry': { topic: 'retry', answer: 'three times' },
    'm5-unused': { topic: 'colour', answer: 'blue' },
  },
  [
    { topic: 'port', expected: '5432' },
    { topic: 'lock', expected: 'flock' },
    { topic: 'lock', expected: 'flock' },
    { topic: 'retry', expected: 'three times' },
  ],
);

describe('the memory ablation oracle', () => {
  it('grades each memory by what removing it does to held-out queries', async () => {
    const results = await ablateMemories(
      ['m1-port', 'm2-port-copy', 'm3-lock', 'm0-wrong-retry', 'm5-unused'],
      world,
    );
    expect(Object.fromEntries(results.map((result) => [result.memory, result.worth]))).toEqual({
      'm1-port': 'redundant', // its copy answers the same
      'm2-port-copy': 'unmeasured', // no query ever reached it
      'm3-lock': 'keep', // two held-out queries need it
      'm0-wrong-retry': 'harmful', // removing it makes an answer right
      'm5-unused': 'unmeasured',
    });
  });

  it('calls a memory weak when only one held-out query needs it', async () => {
    const [result] = await ablateMemories(
      ['m4'],
      memoryWorld({ m4: { topic: 't', answer: 'a' } }, [{ topic: 't', expected: 'a' }]),
    );
    expect(result?.worth).toBe('weak');
  });

  it('proves it can see harm with a planted poison', async () => {
    expect(await poisonSelfTest(world)).toEqual({
      seesHarm: true,
      reason: 'the planted poison was found harmful',
    });
  });

  it('fails the self-test when no query is answered right, rather than pretend', async () => {
    const blind: AblationEvaluator = async () => [{ correct: false, used: [] }];
    expect((await poisonSelfTest(blind)).seesHarm).toBe(false);
  });
});
