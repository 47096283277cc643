import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { briefConversation } from './brief-conversation.js';

describe('briefConversation', () => {
  it('sends a brief exactly when its words differ from the last one sent, or after a compaction', () => {
    const turn = fc.record({ text: fc.constantFrom('a', 'b', 'c'), compacted: fc.boolean() });
    fc.assert(
      fc.property(fc.option(fc.constantFrom('a', 'b')), fc.array(turn), (sent, turns) => {
        const conversation = briefConversation(sent ?? undefined);
        let last: string | undefined = sent ?? undefined;
        for (const { text, compacted } of turns) {
          const expected = last === undefined || compacted || text !== last;
          const offered = conversation.offer(text, { compacted });
          expect(offered).toBe(expected ? text : undefined);
          if (expected) last = text;
          expect(conversation.lastSent).toBe(last);
        }
      }),
    );
  });
});
