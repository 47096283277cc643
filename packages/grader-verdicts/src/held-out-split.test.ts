import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heldOutSide, splitHeldOut } from './held-out-split.js';

const requestArb = fc.record({
  id: fc.uuid(),
  traceId: fc.string(),
  text: fc.string({ maxLength: 40 }),
});

describe('the held-out split', () => {
  it('puts a request on the same side whatever its id and wherever it sits in the list', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(requestArb, { selector: (request) => request.text, maxLength: 30 }),
        fc.func(fc.uuid()),
        fc.integer(),
        (requests, newId, seed) => {
          const before = splitHeldOut(requests, (request) => request.text);
          const renamed = requests.map((request, index) => ({
            ...request,
            id: newId(index),
            traceId: `${seed}-${index}`,
          }));
          const reordered = [...renamed].reverse();
          const after = splitHeldOut(reordered, (request) => request.text);
          const side = (split: typeof before, text: string) =>
            split.heldOut.some((request) => request.text === text) ? 'held-out' : 'train';
          for (const request of requests) {
            expect(side(after, request.text)).toBe(side(before, request.text));
          }
        },
      ),
    );
  });

  it('holds out about the fraction asked for', () => {
    const texts = Array.from({ length: 5000 }, (_, index) => `request ${index}`);
    const held = texts.filter((text) => heldOutSide(text, 0.2) === 'held-out').length;
    expect(held / texts.length).toBeGreaterThan(0.17);
    expect(held / texts.length).toBeLessThan(0.23);
  });

  it('reads structured content canonically: key order does not move a request', () => {
    expect(heldOutSide({ a: 1, b: 'x' }, 0.5)).toBe(heldOutSide({ b: 'x', a: 1 }, 0.5));
  });
});
