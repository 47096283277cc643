import { describe, expect, it } from 'vitest';
import { conversation, events } from './__fixtures__/events.js';
import { groundCorrections } from './ground-corrections.js';

describe('groundCorrections', () => {
  const session = conversation();

  it('sends a correction whose quote is in one of the owner’s own messages as grounded', () => {
    expect(
      groundCorrections(
        [{ wrong: 'Priya is at Brown', right: 'Priya is at Yale', quote: 'she  moved to Yale' }],
        session,
      ),
    ).toEqual([{ wrong: 'Priya is at Brown', right: 'Priya is at Yale' }]);
  });

  it('marks one with no quote, a quote of the agent or of a tool result, or an altered quote, not grounded', () => {
    const sent = groundCorrections(
      [
        { wrong: 'a' },
        { wrong: 'b', quote: 'I drafted the reply' },
        { wrong: 'c', quote: 'priya@yale.edu' },
        { wrong: 'd', quote: 'she moved to Brown' },
        { wrong: 'e', quote: '   ' },
      ],
      session,
    );
    expect(sent.map((item) => item.grounded)).toEqual([false, false, false, false, false]);
    expect(sent.every((item) => !('quote' in item))).toBe(true);
  });

  it('reads only owner messages, whatever the agent repeated', () => {
    const echoed = [...session, events.agent('msg-9', 'no, she is at Yale now')];
    expect(groundCorrections([{ wrong: 'x', quote: 'she is at Yale now' }], echoed)).toEqual([
      { wrong: 'x', grounded: false },
    ]);
  });
});
