import fc from 'fast-check';
import type { SessionEvidence } from '../ports/session-evidence.js';
import type { ClosureRecord } from '../schemas/closures.js';
import type { GoalError, GoalRef } from '../schemas/goal-error.js';
import type { OwnerOutcomeRecord, ReflectionRecord } from '../schemas/learning.js';
import type { OutboxRecord } from '../schemas/outbox.js';
import type { QuestionRecord } from '../schemas/questions.js';
import type { RequestRecord } from '../schemas/requests.js';
import type { StopCause, TranscriptEvent } from '../schemas/transcript.js';
import type { WorkflowRecord } from '../schemas/workflows.js';
import {
  closure,
  compaction,
  counter,
  end,
  evidence,
  intervention,
  outcome,
  ownerOutcome,
  parked,
  reflection,
  request,
  settled,
  staged,
  start,
  stepCheck,
  workflow,
} from './evidence-builders.js';

/** The charter lines the realistic generators attribute to; `gone` is not among them. */
export const charterLines = ['replies', 'invoices'] as const;

/** Every counter name a run may record: those that sign, those excluded, and noise. */
export const counterNames = [
  'loop_stop',
  'empty_output',
  'final_failed_call',
  'turn_ceiling',
  'token_ceiling',
  'cost_ceiling',
  'boredom_notice',
  'tool_denied',
  'blocked_sends',
  'context_overflows',
  'tool_errors',
  'null_steps',
] as const;

/** The counters that never contribute. */
export const excludedCounterNames = [
  'tool_denied',
  'blocked_sends',
  'context_overflows',
  'tool_errors',
] as const;

const goalArbitrary: fc.Arbitrary<GoalRef | undefined> = fc.constantFrom<GoalRef | undefined>(
  undefined,
  { kind: 'charter', id: 'replies' },
  { kind: 'charter', id: 'invoices' },
  { kind: 'charter', id: 'gone' },
  { kind: 'task', id: 'task-9' },
);

/** Any valid signed error, including hand-made ones no producer writes. */
export const goalErrorArbitrary: fc.Arbitrary<GoalError> = fc.record({
  goal: goalArbitrary,
  channel: fc.constantFrom(
    'intervention',
    'edit',
    'counter',
    'setpoint',
    'commitment',
    'appraisal',
  ),
  sign: fc.oneof(
    fc.constantFrom(-1, -0.5, 0, 0.5, 1),
    fc.double({ min: -1, max: 1, noNaN: true, noDefaultInfinity: true }),
  ),
  agency: fc.constantFrom('self', 'owner', 'other', 'world'),
  visible: fc.boolean(),
  controllable: fc.constantFrom<GoalError['controllable']>('unfilled', true, false),
  cite: fc.oneof(
    fc.record({ kind: fc.constant('turn'), turn: fc.nat(20) }),
    fc.record({ kind: fc.constant('draft'), draft_id: fc.constantFrom('d-1', 'd-2', 'd-3') }),
    fc.record({ kind: fc.constant('counter'), name: fc.constantFrom('loop_stop', 'turn_ceiling') }),
    fc.record({ kind: fc.constant('question'), question_id: fc.constantFrom('q-1', 'q-2') }),
    fc.record({ kind: fc.constant('outcome'), outcome_id: fc.constantFrom('o-1', 'o-2') }),
    fc.record({ kind: fc.constant('closure'), closure_id: fc.constantFrom('c-1', 'c-2') }),
  ),
});

function quiet<T>(arbitrary: fc.Arbitrary<readonly T[]>): fc.Arbitrary<readonly T[]> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<readonly T[]>([]) },
    { weight: 2, arbitrary },
  );
}

const stopCauses: readonly StopCause[] = [
  'completed',
  'stopped',
  'shutdown',
  'parked',
  'interrupted',
  'turn_ceiling',
  'token_ceiling',
  'cost_ceiling',
  'loop',
  'empty_output',
  'failed_call',
  'error',
];

const runArbitrary = fc.record({
  goal: goalArbitrary,
  stop: fc.oneof(
    { weight: 6, arbitrary: fc.constant<StopCause>('completed') },
    { weight: 4, arbitrary: fc.constantFrom(...stopCauses) },
  ),
  interventions: quiet(
    fc.array(fc.record({ kind: fc.constantFrom('steer', 'deny', 'stop'), turn: fc.nat(6) }), {
      maxLength: 2,
    }),
  ),
  counters: quiet(fc.array(fc.constantFrom(...counterNames), { maxLength: 3 })),
  checks: quiet(
    fc.array(
      fc.record({ step: fc.constantFrom('a', 'b'), turn: fc.nat(6), passed: fc.boolean() }),
      {
        maxLength: 2,
      },
    ),
  ),
  compacted: fc.oneof(
    { weight: 9, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
});

const draftArbitrary = fc.record({
  goal: goalArbitrary,
  outcome: fc.option(
    fc.record({
      result: fc.oneof(
        { weight: 3, arbitrary: fc.constant('sent_unchanged' as const) },
        { weight: 1, arbitrary: fc.constantFrom('sent_edited', 'rejected', 'cancelled') },
      ),
      sender: fc.oneof(
        { weight: 3, arbitrary: fc.constant('owner' as const) },
        { weight: 1, arbitrary: fc.constantFrom('run_shell', 'unrecorded') },
      ),
    }),
  ),
  ownerOutcome: fc.option(
    fc.record({
      kind: fc.constantFrom('fine', 'confirmed_error', 'adverse_impact'),
      commitment: fc.boolean(),
    }),
  ),
});

/** What a realistic session is generated from; `records` turns it into evidence. */
export const sessionShapeArbitrary = fc.record({
  runs: fc.array(runArbitrary, { minLength: 1, maxLength: 3 }),
  drafts: fc.array(draftArbitrary, { maxLength: 3 }),
  questions: fc.array(
    fc.record({
      goal: goalArbitrary,
      settle: fc.constantFrom('pending', 'answered', 'abandoned'),
      afterRun: fc.nat(2),
    }),
    { maxLength: 2 },
  ),
  requests: quiet(
    fc.array(fc.record({ draft: fc.boolean(), closed: fc.boolean(), needsInfo: fc.boolean() }), {
      maxLength: 2,
    }),
  ),
  closures: fc.array(
    fc.record({
      to: fc.constantFrom('done', 'dropped'),
      who: fc.constantFrom('owner', 'agent_with_approval', 'unknown'),
      reopened: fc.oneof(
        { weight: 3, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    }),
    { maxLength: 2 },
  ),
  workflows: fc.array(
    fc.record({
      task: fc.option(fc.constant('task-2'), { nil: undefined }),
      steps: fc.array(fc.constantFrom('closed', 'cancelled', 'reopened', 'artifact', 'delivery'), {
        maxLength: 3,
      }),
    }),
    { maxLength: 2 },
  ),
  reflections: quiet(
    fc.array(fc.record({ clean: fc.boolean(), turn: fc.option(fc.nat(6), { nil: undefined }) }), {
      maxLength: 2,
    }),
  ),
});

/** The shape of one generated session. */
export type SessionShape = typeof sessionShapeArbitrary extends fc.Arbitrary<infer T> ? T : never;

/**
 * Turns a generated shape into the records producers write. Owner outcomes are written only
 * when `withOwnerOutcomes` is set, so the free readout's population can be told apart.
 */
export function records(shape: SessionShape, withOwnerOutcomes = false): SessionEvidence {
  const transcript: TranscriptEvent[] = [];
  shape.runs.forEach((run, index) => {
    const runId = `r-${index}`;
    const t = index * 10;
    transcript.push(
      start(runId, t, {
        ...(run.goal === undefined ? {} : { goal: run.goal }),
        resumed: index > 0,
      }),
    );
    for (const step of run.interventions) {
      transcript.push(intervention(runId, step.kind, step.turn + index * 10, t + 1));
    }
    for (const check of run.checks) {
      transcript.push(stepCheck(runId, check.step, check.turn + index * 10, check.passed, t + 2));
    }
    if (run.compacted) transcript.push(compaction(runId, 9, t + 2));
    for (const name of run.counters) transcript.push(counter(runId, name, 1, t + 3));
    transcript.push(end(runId, run.stop, t + 5));
  });

  const outbox: OutboxRecord[] = [];
  const outcomes: OwnerOutcomeRecord[] = [];
  shape.drafts.forEach((draft, index) => {
    const draftId = `d-${index}`;
    outbox.push(staged(draftId, draft.goal === undefined ? {} : { goal: draft.goal }));
    if (draft.outcome !== null) {
      outbox.push(outcome(draftId, draft.outcome.result, draft.outcome.sender, 40 + index));
      if (withOwnerOutcomes && draft.ownerOutcome !== null && draft.outcome.result !== 'rejected') {
        outcomes.push(
          ownerOutcome(`o-${index}`, draftId, draft.ownerOutcome.kind, {
            ...(draft.ownerOutcome.commitment ? { commitment: 'q-0' } : {}),
          }),
        );
      }
    }
  });

  const questions: QuestionRecord[] = [];
  shape.questions.forEach((question, index) => {
    const questionId = `q-${index}`;
    questions.push(parked(questionId, 0.4, question.goal));
    if (question.settle !== 'pending') {
      questions.push(settled(questionId, question.settle, question.afterRun * 10 + 6));
    }
  });

  const requests: RequestRecord[] = [];
  shape.requests.forEach((item, index) => {
    const requestId = `req-${index}`;
    requests.push(request(requestId, 'received', 0), request(requestId, 'triaged', 1));
    if (item.needsInfo) requests.push(request(requestId, 'needs_info', 2));
    if (item.draft) requests.push(request(requestId, 'draft_linked', 3));
    if (item.closed) requests.push(request(requestId, 'closed', 4));
  });

  const closures: ClosureRecord[] = [];
  shape.closures.forEach((item, index) => {
    const closureId = `close-${index}`;
    closures.push(closure(closureId, 'next', item.to, { at: 50 + index, who: item.who }));
    if (item.reopened) {
      closures.push(
        closure(`reopen-${index}`, item.to, 'next', { at: 60 + index, reopens: closureId }),
      );
    }
  });

  const workflows: WorkflowRecord[] = [];
  shape.workflows.forEach((item, index) => {
    const workflowId = `wf-${index}`;
    workflows.push(
      workflow(workflowId, 'started', 0, item.task === undefined ? {} : { task: item.task }),
    );
    item.steps.forEach((step, position) => {
      const at = 70 + position;
      if (step === 'artifact' || step === 'delivery') {
        workflows.push(workflow(workflowId, 'verified', at, { check: step, passed: false }));
      } else {
        workflows.push(workflow(workflowId, step, at));
      }
    });
  });

  const reflections: ReflectionRecord[] = shape.reflections.map((item, index) =>
    reflection(`refl-${index}`, {
      clean: item.clean,
      ...(item.turn === undefined ? {} : { turn: item.turn }),
    }),
  );

  return evidence({
    transcript,
    outbox,
    questions,
    requests,
    closures,
    workflows,
    reflections,
    ownerOutcomes: outcomes,
  });
}
