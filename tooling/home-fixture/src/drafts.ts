import type { GoalRef } from '@mecha/appraisal-core';
import { type Draw, hour, iso, minute } from './draw.js';
import type { HomeWriter } from './home-writer.js';

/**
 * A run stages a draft (`outbox/outbox.jsonl`) at `at`, now and then with the anticipation of
 * how the owner will answer it (`anticipation/predictions.jsonl`). Returns the draft's id.
 */
export function stageDraft(
  draw: Draw,
  writer: HomeWriter,
  staged: {
    readonly at: number;
    readonly sessionId: string;
    readonly runId: string;
    readonly thirdParty: boolean;
    readonly goal: GoalRef | undefined;
  },
): string {
  const { random, id, text } = draw;
  const { at, sessionId, goal } = staged;
  const taint = staged.thirdParty ? 'third_party' : 'clean';
  const draftId = id('draft');
  writer.add(at, 'outbox', {
    v: 1,
    type: 'staged',
    at: iso(at),
    draft_id: draftId,
    session_id: sessionId,
    run_id: staged.runId,
    tool: random.pick(['mail_send', 'slack_post']),
    taint,
    ...(goal === undefined ? {} : { goal }),
    text: text(15, 60),
  });
  if (random.chance(0.2)) {
    writer.add(at, 'predictions', {
      v: 1,
      prediction_id: id('pred'),
      at: iso(at),
      draft_id: draftId,
      session_id: sessionId,
      response: random.pick(['release', 'hold', 'revise']),
      concern: random.pick(['tone', 'wrong_recipient', 'missing_attachment', 'none']),
      taint,
    });
  }
  return draftId;
}

/**
 * What the owner did with a session's drafts after it ended: sent as written or edited,
 * rejected, cancelled, or not yet; by the owner or a run's shell (not recorded on the early,
 * version-1 outcomes); and, for a few sent ones, what came of them (`outcomes/owner-outcomes.jsonl`).
 */
export function settleDrafts(
  draw: Draw,
  writer: HomeWriter,
  session: {
    readonly draftIds: readonly string[];
    readonly sessionId: string;
    readonly endedAt: number;
    readonly early: boolean;
    readonly requestId: string | undefined;
  },
): void {
  const { random, id, text } = draw;
  const { sessionId, endedAt, early, requestId } = session;
  for (const draftId of session.draftIds) {
    const outcome = random.weighted([
      ['sent_unchanged', 45],
      ['sent_edited', 15],
      ['rejected', 15],
      ['cancelled', 5],
      ['pending', 20],
    ] as const);
    if (outcome === 'pending') continue;
    const at = endedAt + random.int(10, 60 * 60) * minute;
    const sender = random.weighted([
      ['owner', 85],
      ['run_shell', 15],
    ] as const);
    writer.add(at, 'outbox', {
      v: early ? 1 : 2,
      type: 'outcome',
      at: iso(at),
      draft_id: draftId,
      outcome,
      ...(outcome === 'rejected' && random.chance(0.5) ? { reason: text(4, 14) } : {}),
      ...(early ? {} : { sender }),
    });
    if ((outcome === 'sent_unchanged' || outcome === 'sent_edited') && random.chance(0.1)) {
      const reportedAt = at + random.int(1, 72) * hour;
      writer.add(reportedAt, 'ownerOutcomes', {
        v: 1,
        outcome_id: id('outcome'),
        at: iso(reportedAt),
        draft_id: draftId,
        session_id: sessionId,
        kind: random.weighted([
          ['fine', 70],
          ['confirmed_error', 20],
          ['adverse_impact', 10],
        ] as const),
        ...(requestId === undefined ? {} : { commitment_id: requestId }),
      });
    }
  }
}
