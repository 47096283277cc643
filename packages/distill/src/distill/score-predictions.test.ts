import { createScriptedModel } from '@mecha/local-model';
import { afterEach, describe, expect, it } from 'vitest';
import { conversation } from '../__fixtures__/events.js';
import { groundedAnswer, isFollowUp, sessionOf } from '../__fixtures__/scripted-distiller.js';
import { testHome, testNow } from '../__fixtures__/test-home.js';
import { distill } from './distill.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const A = '20260925T090000-aaaaaaa1';
const B = '20260925T100000-bbbbbbb2';

describe('scoring predictions after distilling', () => {
  it('records each answer once in scores.jsonl, a wrong prediction as a surprise', async () => {
    const made = testHome();
    cleanups.push(made.remove);
    made.writeSession(A, conversation());
    made.writeSession(B, conversation());
    // A's appraiser expects no act (and none came: a hit); B's expects a rejection (a surprise).
    const model = () =>
      createScriptedModel((prompt) => {
        if (!isFollowUp(prompt))
          return JSON.stringify({ skip: false, episode: 'Drafted a reply.' });
        const answer = JSON.parse(groundedAnswer(prompt)) as Record<string, unknown>;
        return JSON.stringify({
          ...answer,
          expected_act: sessionOf(prompt) === A ? 'no_act' : 'rejected',
        });
      });
    const first = await distill({ home: made.open(), model: model(), clock: () => testNow });
    if (first.state !== 'done') throw new Error(first.message);
    expect(first.report.scoring).toEqual({
      scored: 2,
      hits: 1,
      surprises: 1,
      waiting: 0,
      unknown: 0,
      alreadyScored: 0,
    });
    const scores = made.scores();
    expect(
      scores.map((score) => [score.session_id, score.expected, score.actual, score.hit]),
    ).toEqual([
      [A, 'no_act', 'no_act', true],
      [B, 'rejected', 'no_act', false],
    ]);
    // Once per answer: a second run records nothing new.
    const again = await distill({ home: made.open(), model: model(), clock: () => testNow });
    if (again.state !== 'done') throw new Error(again.message);
    expect(again.report.scoring).toMatchObject({ scored: 0, alreadyScored: 2 });
    expect(made.scores()).toHaveLength(2);
  });

  it('leaves a prediction whose wait is still open unrecorded, for a later run', async () => {
    const made = testHome();
    cleanups.push(made.remove);
    made.writeSession(A, conversation());
    const early = new Date('2026-09-26T00:00:00Z');
    const model = createScriptedModel((prompt) =>
      isFollowUp(prompt)
        ? groundedAnswer(prompt)
        : JSON.stringify({ skip: false, episode: 'x y z' }),
    );
    const result = await distill({ home: made.open(), model, clock: () => early });
    if (result.state !== 'done') throw new Error(result.message);
    expect(result.report.scoring).toMatchObject({ scored: 0, waiting: 1 });
    expect(made.scores()).toEqual([]);
  });
});
