import type { CharterLine } from '@mecha/charter';
import fc from 'fast-check';
import type { ClosureRecord } from '../schemas/closures.js';
import type { ComparisonRecord, CounterfactualRecord } from '../schemas/comparisons.js';
import type { CurationRecord, OwnerOutcomeRecord, ReflectionRecord } from '../schemas/learning.js';
import type { OutboxRecord } from '../schemas/outbox.js';
import type { PredictionRecord } from '../schemas/predictions.js';
import type { QuestionRecord } from '../schemas/questions.js';
import type { RequestRecord } from '../schemas/requests.js';
import type { StopCause, TranscriptEvent } from '../schemas/transcript.js';
import type { WorkflowRecord } from '../schemas/workflows.js';
import type { MemorySession, MemoryStores } from './memory-ports.js';
import {
  at,
  closure,
  comparison,
  outcome,
  parked,
  questionEnd,
  session,
  staged,
  textAppraisal,
  workflow,
} from './records.js';

const sessionIndex = fc.nat({ max: 2 });

const sessionSpec = fc.record({
  kind: fc.constantFrom('ordinary', 'ordinary', 'ordinary', 'test', 'experiment') as fc.Arbitrary<
    'ordinary' | 'test' | 'experiment'
  >,
  surface: fc.constantFrom('cli', 'web', 'task'),
  goal: fc.option(fc.constantFrom('task-0', 'task-1'), { nil: undefined }),
  charterGoal: fc.boolean(),
  stops: fc.array(
    fc.constantFrom<StopCause>('completed', 'turn_ceiling', 'loop', 'stopped', 'parked', 'error'),
    { minLength: 1, maxLength: 2 },
  ),
  steer: fc.boolean(),
  compacted: fc.boolean(),
  counters: fc.option(fc.constantFrom('boredom_notice', 'goal_drift', 'null_steps'), {
    nil: undefined,
  }),
  days: fc.nat({ max: 40 }),
});

const specs = fc.record({
  sessions: fc.array(sessionSpec, { minLength: 1, maxLength: 3 }),
  drafts: fc.array(
    fc.record({
      session: sessionIndex,
      outcome: fc.constantFrom(undefined, 'sent_unchanged', 'sent_edited', 'rejected', 'cancelled'),
      sender: fc.constantFrom('owner', 'run_shell', 'unrecorded') as fc.Arbitrary<
        'owner' | 'run_shell' | 'unrecorded'
      >,
      reason: fc.boolean(),
      report: fc.constantFrom(undefined, 'fine', 'confirmed_error', 'adverse_impact'),
      predicted: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
  closures: fc.array(
    fc.record({
      sessions: fc.uniqueArray(sessionIndex, { maxLength: 3 }),
      to: fc.constantFrom('done' as const, 'dropped' as const),
      who: fc.constantFrom('owner', 'agent_with_approval', 'unknown') as fc.Arbitrary<
        'owner' | 'agent_with_approval' | 'unknown'
      >,
      reopened: fc.boolean(),
    }),
    { maxLength: 2 },
  ),
  workflows: fc.array(
    fc.record({
      session: sessionIndex,
      check: fc.constantFrom(undefined, true, false),
      end: fc.constantFrom(undefined, 'closed' as const, 'cancelled' as const),
      reopened: fc.boolean(),
    }),
    { maxLength: 2 },
  ),
  questions: fc.array(
    fc.record({
      session: sessionIndex,
      purpose: fc.constantFrom('goal' as const, 'ordinary' as const),
      end: fc.constantFrom(undefined, 'answered' as const, 'abandoned' as const),
    }),
    { maxLength: 2 },
  ),
  requests: fc.array(
    fc.record({ session: sessionIndex, linked: fc.boolean(), closed: fc.boolean() }),
    { maxLength: 1 },
  ),
  reflections: fc.array(
    fc.record({ session: sessionIndex, clean: fc.boolean(), turn: fc.nat({ max: 3 }) }),
    { maxLength: 1 },
  ),
  charter: fc.subarray<CharterLine>([
    {
      id: 'replies',
      text: 'Answer people promptly',
      sensor: 'outbox_age',
      setpoint: 24 * 3_600_000,
    },
    { id: 'deep-work', text: 'Protect deep work' },
    { id: 'questions', text: 'Unblock questions', sensor: 'question_latency' },
  ]),
  curation: fc.array(
    fc.record({
      target: fc.constantFrom('rule' as const, 'reflection' as const, 'candidate' as const),
      verdict: fc.constantFrom(
        'retired' as const,
        'restored' as const,
        'dropped' as const,
        'edited' as const,
        'accepted' as const,
        'rejected' as const,
        'reverted' as const,
      ),
    }),
    { maxLength: 2 },
  ),
  appraisals: fc.array(
    fc.record({
      session: sessionIndex,
      expected: fc.constantFrom(undefined, 'released_unchanged', 'closed', 'no_act', 'rejected'),
      taint: fc.constantFrom('clean' as const, 'third_party' as const, 'unknown' as const),
      counterfactual: fc.boolean(),
    }),
    { maxLength: 2 },
  ),
  comparisons: fc.array(
    fc.record({
      model: fc.constantFrom(undefined, 'qwen', 'llama'),
      verdict: fc.constantFrom(
        'separated' as const,
        'tied' as const,
        'inconclusive' as const,
        'unreadable_verdict' as const,
        'unposed' as const,
      ),
      judge: fc.boolean(),
    }),
    { maxLength: 2 },
  ),
});

/** A generated corpus: every store filled, every record at its own moment. */
export type GeneratedCorpus = MemoryStores & {
  readonly sessions: readonly MemorySession[];
  readonly outbox: readonly OutboxRecord[];
};

/**
 * Arbitrary small corpora over every store the readouts read, with record times all distinct
 * so that no ordering question is left to store order.
 */
export const corpusArbitrary: fc.Arbitrary<GeneratedCorpus> = specs.map((spec) => {
  let clock = 0;
  const tick = () => {
    clock += 1;
    return clock / 16;
  };
  const ids = spec.sessions.map((_, index) => `s-${index}`);
  const sessionOf = (index: number) => ids[index % ids.length] as string;
  const sessions: MemorySession[] = spec.sessions.map((s, index) => {
    const start = -24 * s.days;
    const extra: TranscriptEvent[] = [];
    const runId = `${ids[index]}-r1`;
    if (s.steer) {
      extra.push({
        v: 1,
        type: 'intervention',
        at: at(start),
        run_id: runId,
        turn: 1,
        kind: 'steer',
      });
    }
    if (s.compacted)
      extra.push({ v: 1, type: 'compaction', at: at(start), run_id: runId, turn: 2 });
    return session(
      ids[index] as string,
      s.stops.map((stop, run) => ({
        start: start + run * 2,
        end: start + run * 2 + 1,
        kind: s.kind,
        surface: s.surface,
        stop,
        ...(s.goal === undefined
          ? {}
          : {
              goal: s.charterGoal
                ? { kind: 'charter' as const, id: 'deep-work' }
                : { kind: 'task' as const, id: s.goal },
            }),
        ...(run === 0
          ? { extra, ...(s.counters ? { counters: { [s.counters]: 1 } } : {}) }
          : { resumed: true }),
      })),
    );
  });

  const outbox: OutboxRecord[] = [];
  const ownerOutcomes: OwnerOutcomeRecord[] = [];
  const predictions: PredictionRecord[] = [];
  spec.drafts.forEach((d, index) => {
    const draftId = `d-${index}`;
    const sessionId = sessionOf(d.session);
    outbox.push(staged(draftId, sessionId, { at: tick(), text: `draft ${index}` }));
    if (d.predicted) {
      predictions.push({
        v: 1,
        prediction_id: `p-${index}`,
        at: at(tick()),
        draft_id: draftId,
        session_id: sessionId,
        response: 'release',
        concern: index % 2 === 0 ? 'tone' : 'wrong_recipient',
        taint: 'clean',
      });
    }
    if (d.outcome !== undefined) {
      const record = outcome(draftId, d.outcome, {
        at: tick(),
        sender: d.sender,
        ...(d.reason ? { reason: 'not what I asked for' } : {}),
      });
      outbox.push(record);
      if (d.report !== undefined) {
        ownerOutcomes.push({
          v: 1,
          outcome_id: `o-${index}`,
          at: at(tick()),
          draft_id: draftId,
          session_id: sessionId,
          kind: d.report,
        });
      }
    }
  });

  const closures: ClosureRecord[] = [];
  spec.closures.forEach((c, index) => {
    const named = c.sessions.map(sessionOf);
    closures.push(closure(`c-${index}`, `task-${index}`, c.to, named, { at: tick(), who: c.who }));
    if (c.reopened) {
      closures.push(
        closure(`r-${index}`, `task-${index}`, 'next', named, {
          at: tick(),
          from: c.to,
          reopens: `c-${index}`,
        }),
      );
    }
  });

  const workflows: WorkflowRecord[] = [];
  spec.workflows.forEach((w, index) => {
    const id = `w-${index}`;
    const sessionId = sessionOf(w.session);
    workflows.push(workflow(id, { type: 'started', sessionId, taskId: 'task-0' }, tick()));
    if (w.check !== undefined) {
      workflows.push(workflow(id, { type: 'verified', sessionId, passed: w.check }, tick()));
    }
    if (w.end !== undefined) workflows.push(workflow(id, { type: w.end }, tick()));
    if (w.end !== undefined && w.reopened)
      workflows.push(workflow(id, { type: 'reopened' }, tick()));
  });

  const questions: QuestionRecord[] = [];
  spec.questions.forEach((q, index) => {
    questions.push(parked(`q-${index}`, sessionOf(q.session), { at: tick(), purpose: q.purpose }));
    if (q.end !== undefined) questions.push(questionEnd(`q-${index}`, q.end, tick()));
  });

  const requests: RequestRecord[] = [];
  spec.requests.forEach((r, index) => {
    const requestId = `req-${index}`;
    requests.push({ v: 1, type: 'received', at: at(tick()), request_id: requestId });
    requests.push({
      v: 1,
      type: 'triaged',
      at: at(tick()),
      request_id: requestId,
      session_id: sessionOf(r.session),
    });
    if (r.linked)
      requests.push({
        v: 1,
        type: 'draft_linked',
        at: at(tick()),
        request_id: requestId,
        draft_id: 'd-0',
      });
    if (r.closed) requests.push({ v: 1, type: 'closed', at: at(tick()), request_id: requestId });
  });

  const reflections: ReflectionRecord[] = spec.reflections.map((r, index) => ({
    v: 1,
    reflection_id: `rf-${index}`,
    session_id: sessionOf(r.session),
    at: at(tick()),
    clean: r.clean,
    correction_turn: r.turn,
  }));

  const curation = (target: CurationRecord['target']): CurationRecord[] =>
    spec.curation.flatMap((c, index) =>
      c.target === target
        ? [
            {
              v: 1 as const,
              at: at(tick()),
              target,
              target_id: `${target}-${index}`,
              verdict: c.verdict,
            },
          ]
        : [],
    );

  const counterfactuals: CounterfactualRecord[] = [];
  const textAppraisals = spec.appraisals.map((a, index) => {
    const sessionId = sessionOf(a.session);
    if (a.counterfactual) {
      counterfactuals.push({
        v: 1,
        reflection_id: `cfr-${index}`,
        at: at(tick()),
        session_id: sessionId,
        comparison_id: `cmp-${index}`,
        taint: a.taint,
      });
    }
    return textAppraisal(`a-${index}`, sessionId, {
      at: tick(),
      taint: a.taint,
      ...(a.expected === undefined ? {} : { expected: a.expected }),
      dropped: index % 2 === 0 ? { no_such_referent: 1 } : {},
    });
  });

  const comparisons: ComparisonRecord[] = spec.comparisons.map((c, index) =>
    comparison(`cmp-${index}`, {
      at: tick(),
      verdict: c.verdict,
      ...(c.model === undefined || c.verdict === 'unposed' ? {} : { model: c.model }),
      ...(c.judge ? { decidedBy: 'judge' as const } : { decidedBy: 'validator' as const }),
      moment: index % 2 === 0 ? 'steer' : 'draft_rejected',
    }),
  );

  return {
    sessions,
    outbox,
    ownerOutcomes,
    predictions,
    closures,
    workflows,
    questions,
    requests,
    reflections,
    charter: spec.charter,
    curation: {
      rule: curation('rule'),
      reflection: curation('reflection'),
      candidate: curation('candidate'),
    },
    textAppraisals,
    counterfactuals,
    comparisons,
  };
});

/** The moment generated corpora are read at: a day after the fixture epoch. */
export const corpusNow = new Date(at(24));
