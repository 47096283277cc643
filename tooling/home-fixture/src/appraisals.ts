import { expectedActSchema, type GoalRef } from '@mecha/appraisal-core';
import { type Draw, day, iso } from './draw.js';
import type { HomeWriter } from './home-writer.js';

/**
 * The nightly appraisal of a session (`appraisals/`): a text appraisal with the act it expects
 * of the owner, scored against the act that came; now and then a comparison of models on one
 * moment of the session and the counterfactual reflection on it.
 */
export function appraiseSession(
  draw: Draw,
  writer: HomeWriter,
  session: {
    readonly nightly: number;
    readonly sessionId: string;
    readonly thirdParty: boolean;
    readonly goal: GoalRef | undefined;
  },
): void {
  const { random, id, text } = draw;
  const { nightly, sessionId, goal } = session;
  const appraisalId = id('appr');
  const expected = random.chance(0.7) ? random.pick(expectedActSchema.options) : undefined;
  const taint = session.thirdParty ? 'third_party' : 'clean';
  writer.add(nightly, 'textAppraisals', {
    v: 1,
    appraisal_id: appraisalId,
    session_id: sessionId,
    at: iso(nightly),
    taint,
    ...(expected === undefined ? {} : { expected_act: expected }),
    interpretation: text(20, 80),
    claims_kept: random.int(0, 4),
    claims_dropped: random.chance(0.3) ? { no_such_referent: random.int(1, 2) } : {},
    goal_unresolved: goal !== undefined && random.chance(0.05),
  });
  if (expected !== undefined && random.chance(0.5)) {
    const actual = random.pick([
      'released_unchanged',
      'edited',
      'rejected',
      'closed',
      'reopened',
      'no_act',
    ] as const);
    writer.add(nightly + 3 * day, 'scores', {
      v: 1,
      appraisal_id: appraisalId,
      session_id: sessionId,
      at: iso(nightly + 3 * day),
      expected,
      actual,
      hit: expected === actual,
      taint,
    });
  }
  if (random.chance(0.05)) {
    const comparisonId = id('cmp');
    writer.add(nightly + day, 'comparisons', {
      v: 1,
      comparison_id: comparisonId,
      at: iso(nightly + day),
      session_id: sessionId,
      moment: random.pick(['steer', 'refusal', 'draft_rewritten', 'draft_rejected']),
      model: random.pick(['local-7b', 'local-14b']),
      verdict: random.pick(['separated', 'tied', 'inconclusive'] as const),
      decided_by: 'validator',
    });
    writer.add(nightly + 2 * day, 'counterfactuals', {
      v: 1,
      reflection_id: id('cfr'),
      at: iso(nightly + 2 * day),
      session_id: sessionId,
      comparison_id: comparisonId,
      taint,
    });
  }
}
