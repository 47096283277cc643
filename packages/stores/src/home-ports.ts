import type { AppraisalPorts, CurationTarget } from '@mecha/appraisal-core';
import { charterLines, readCharterFile } from './charter-file.js';
import { contextOf, type MechaHome } from './home-context.js';

/**
 * The appraisal core's ports over a home's files: each port reads its store when asked, with
 * the store's status, so a readout built on them is partial wherever a store was not read whole.
 */
export function homePorts(home: MechaHome): AppraisalPorts {
  const context = contextOf(home);
  const curation = {
    rule: home.learning.curation.rule,
    reflection: home.learning.curation.reflection,
    candidate: home.learning.curation.candidate,
  } satisfies Record<CurationTarget, unknown>;
  return {
    sessions: {
      list: () => home.sessions.list(),
      transcript: (sessionId) => home.sessions.transcript(sessionId),
      scan: (visitor) => home.sessions.scan(visitor),
    },
    outbox: { read: () => home.outbox.read() },
    questions: { read: () => home.questions.read() },
    requests: { read: () => home.requests.read() },
    closures: { read: () => home.closures.read() },
    workflows: { read: () => home.workflows.read() },
    board: { read: () => home.board.read() },
    charter: { lines: async () => charterLines(readCharterFile(context)) },
    learning: {
      reflections: () => home.learning.reflections.read(),
      curation: (target) => curation[target].read(),
      textAppraisals: () => home.appraisals.textAppraisals.read(),
      counterfactuals: () => home.appraisals.counterfactuals.read(),
      comparisons: () => home.appraisals.comparisons.read(),
      scores: () => home.appraisals.scores.read(),
    },
    ownerOutcomes: { read: () => home.ownerOutcomes.read() },
    predictions: { read: () => home.predictions.read() },
  };
}
