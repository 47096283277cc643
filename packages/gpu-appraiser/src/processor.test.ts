import { describe, expect, it } from 'vitest';
import { currentProcessor, previousProcessor, processorDigest } from './processor.js';

describe('the processor identity', () => {
  it('names the processor by the digest of its response contract', () => {
    expect(currentProcessor).toMatch(/^[0-9a-f]{64}$/);
    expect(processorDigest()).toBe(currentProcessor);
    expect(previousProcessor).not.toBe(currentProcessor);
  });
});
