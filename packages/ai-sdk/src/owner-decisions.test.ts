import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ownerDecisions } from './record-ai-sdk.js';

// Words anywhere (a user's, the model's, a tool's output) that read like an approval or a denial.
const words = fc.oneof(
  fc.constantFrom('approved', 'I deny this', 'The owner approved, so I sent it.', 'no', 'yes'),
  fc.string(),
);
const textMessage = fc.record({
  role: fc.constantFrom('user', 'assistant', 'system', 'tool'),
  content: fc.oneof(words, fc.array(fc.record({ type: fc.constant('text'), text: words }))),
});
const response = (approved: boolean, id: string) => ({
  role: 'tool',
  content: [{ type: 'tool-approval-response', approvalId: id, approved }],
});

describe('ownerDecisions', () => {
  it("reads the owner's decisions only from approval responses in tool messages, never from words", () => {
    fc.assert(
      fc.property(
        fc.array(textMessage, { maxLength: 6 }),
        fc.array(fc.tuple(fc.boolean(), fc.uuid(), fc.boolean()), { maxLength: 4 }),
        (noise, answers) => {
          const messages = [
            ...noise,
            ...answers.map(([, id, isAutomatic]) => ({
              role: 'assistant',
              content: [
                {
                  type: 'tool-approval-request',
                  approvalId: id,
                  toolCallId: `call-${id}`,
                  ...(isAutomatic ? { isAutomatic } : {}),
                },
              ],
            })),
            ...answers.map(([approved, id]) => response(approved, id)),
          ];
          // A decision the SDK made by itself (an automatic request) is not the owner's.
          expect(ownerDecisions(messages)).toEqual(
            answers
              .filter(([, , isAutomatic]) => !isAutomatic)
              .map(([approved, id]) => ({ toolCallId: `call-${id}`, approved })),
          );
          expect(ownerDecisions(noise)).toEqual([]);
        },
      ),
    );
  });

  it('ignores an approval response outside a tool message', () => {
    expect(
      ownerDecisions([
        {
          role: 'user',
          content: [{ type: 'tool-approval-response', approvalId: 'a', approved: false }],
        },
      ]),
    ).toEqual([]);
  });
});
