import { randomBytes } from 'node:crypto';
import {
  type Actor,
  appraiseStep,
  type ConditionsSnapshot,
  type GoalRef,
  type SessionKind,
  type SituationBriefRecord,
  type StepAppraisal,
  type StopCause,
  type Taint,
  type TranscriptEvent,
  transcriptEventSchema,
} from '@mecha/appraisal-core';
import { type BoredomNotice, boredomDetector } from '@mecha/homeostat';
import * as E from 'fp-ts/lib/Either.js';
import { contextOf, type MechaHome } from './home-context.js';
import type { TranscriptEventInput } from './store-schemas.js';
import type { WriteFailure } from './write-failure.js';

/** What a recorder call returns: the ids it minted, or why nothing was written. */
export type Recorded<T> = Promise<E.Either<WriteFailure, T>>;

/** How a run began, as the harness registered it. */
export interface StartRunOptions {
  /** Where the run was started from: `tui`, `web`, `slack`, `voice`, `task`, `trigger`, `cli`, … */
  readonly surface: string;
  /** `test` for development sessions (`MECHA_SESSION_KIND=test`), `experiment` for experiments. */
  readonly sessionKind?: SessionKind;
  readonly workspace?: string;
  /** The goal the run named: a charter line, task, project, trigger or request. */
  readonly goal?: GoalRef;
  readonly configId?: string;
  /** Whether a person is in the run; the closure check reads this registration. */
  readonly personPresent?: boolean;
  /** The tools the run had, by name. */
  readonly tools?: readonly string[];
  /** A run resumed in the same session (after a parked question, say). */
  readonly resumed?: boolean;
  readonly runId?: string;
  /**
   * The conditions sampled as the run began (see `sampleConditions` in `@mecha/homeostat`, or
   * `beginRun`); validated against the record schema, and only for a run that opted in.
   */
  readonly conditions?: ConditionsSnapshot;
  /** The situation brief assembled for the run, and whether it was delivered to the model. */
  readonly brief?: SituationBriefRecord;
}

/** What recording a tool result may hand back: the boredom notice it triggered, if any. */
export interface ToolResultRecorded {
  /**
   * A boredom notice (rung 1, 2 or 3) for the harness to put in front of the model; it is
   * already on the run's record as a `boredom_notice` counter.
   */
  readonly boredom?: BoredomNotice;
}

/**
 * One run's transcript writer. Every call appends one event to `sessions/<id>.jsonl` under the
 * session's lock, fsynced; calls made without awaiting are written in call order.
 */
export interface RunRecorder {
  readonly sessionId: string;
  readonly runId: string;
  message(event: {
    readonly turn: number;
    readonly role: 'owner' | 'assistant' | 'system' | 'third_party';
    readonly taint: Taint;
    readonly text?: string;
    readonly promptTokens?: number;
    readonly messageId?: string;
  }): Recorded<{ readonly messageId: string }>;
  toolCall(event: {
    readonly turn: number;
    readonly tool: string;
    readonly target?: string;
    readonly argsDigest?: string;
    readonly callId?: string;
  }): Recorded<{ readonly callId: string }>;
  /**
   * A call's result; `denied` is the harness's own refusal (a guard, the approver), not a
   * failure. Each result (with the call's target and the result's digest) feeds the run's
   * boredom detector; a notice it fires is recorded and returned.
   */
  toolResult(event: {
    readonly turn: number;
    readonly callId: string;
    readonly status: 'ok' | 'error' | 'denied';
    readonly taint: Taint;
    readonly resultDigest?: string;
    readonly text?: string;
  }): Recorded<ToolResultRecorded>;
  /** A person stepped in: steered, denied, or stopped the run. */
  intervention(event: {
    readonly turn: number;
    readonly kind: 'steer' | 'deny' | 'stop';
  }): Recorded<void>;
  /** A declared plan-step check and whether it passed. */
  stepCheck(event: {
    readonly turn: number;
    readonly stepId: string;
    readonly passed: boolean;
  }): Recorded<void>;
  /**
   * The model ticked a plan step off (marked a todo item completed). Returns the step's reading,
   * derived from what the run recorded since the previous tick (`appraiseStep`); a step with no
   * tool call in that span is a null step, counted on the run's `null_steps` counter. The first
   * tick or reopen of a run records `null_steps` and `reopened_steps` at 0, so a run that tracks
   * steps is never read as one that did not.
   */
  stepDone(event: { readonly stepId: string }): Recorded<StepAppraisal>;
  /** A ticked-off step was taken back (marked not done again): counted on `reopened_steps`. */
  stepReopened(event: { readonly stepId: string }): Recorded<void>;
  /** A counter on the run's own record (`turn_ceiling`, `tool_denied`, `loop_stop`, …). */
  counter(name: string, value: number): Recorded<void>;
  /** The message list was rewritten in place. */
  compaction(event: { readonly turn: number }): Recorded<void>;
  /**
   * The run ended; later calls on this recorder are refused. `conditions` is the part of the
   * snapshot only the end knows (see `finishConditions`), validated like the start's.
   */
  end(event: {
    readonly stopCause: StopCause;
    readonly turns?: number;
    readonly conditions?: ConditionsSnapshot;
  }): Recorded<void>;
}

/**
 * What happened to the items sessions produce: drafts sent, edited, rejected or cancelled (with
 * who sent them), questions answered or abandoned, requests received, parked on the requester
 * or closed, workflows closed, cancelled or reopened, and owner outcomes after delivery. These
 * acts often happen later and elsewhere (the web board, Slack), so they take ids, not a session.
 */
export interface OutcomeRecorder {
  sendDraft(draftId: string, options: { readonly sender: Actor }): Recorded<void>;
  /**
   * A draft sent with the owner's edits; `text` is the words that went out, kept on the outcome
   * for the harness that sends (see `readDraftVerdict`).
   */
  sendEditedDraft(
    draftId: string,
    options: { readonly sender: Actor; readonly text?: string },
  ): Recorded<void>;
  /** A rejection; the reason is the owner's words for the reflector, never part of a score. */
  rejectDraft(
    draftId: string,
    options: { readonly sender: Actor; readonly reason?: string },
  ): Recorded<void>;
  cancelDraft(draftId: string, options: { readonly sender: Actor }): Recorded<void>;
  /** The owner answered; `text` is the answer the parked run resumes with (`readQuestionAnswer`). */
  answerQuestion(questionId: string, options?: { readonly text?: string }): Recorded<void>;
  abandonQuestion(questionId: string): Recorded<void>;
  receiveRequest(options?: {
    readonly requestId?: string;
  }): Recorded<{ readonly requestId: string }>;
  /** The request waits on its requester; it owes nothing meanwhile. */
  markRequestNeedsInfo(requestId: string): Recorded<void>;
  closeRequest(requestId: string): Recorded<void>;
  closeWorkflow(workflowId: string): Recorded<void>;
  cancelWorkflow(workflowId: string): Recorded<void>;
  reopenWorkflow(workflowId: string): Recorded<void>;
  /** What the owner reported after a delivered draft. */
  reportOwnerOutcome(outcome: {
    readonly draftId: string;
    readonly sessionId: string;
    readonly kind: 'fine' | 'confirmed_error' | 'adverse_impact';
    readonly commitmentId?: string;
    readonly outcomeId?: string;
  }): Recorded<{ readonly outcomeId: string }>;
}

/**
 * The API a harness calls to record one session: its runs and their events, and what the
 * session produced — drafts staged, questions parked, requests triaged, workflows started and
 * verified. `outcomes` records what later became of those items.
 */
export interface SessionRecorder {
  readonly sessionId: string;
  startRun(options: StartRunOptions): Recorded<RunRecorder>;
  stageDraft(draft: {
    /** The tool that would send it (`mail_send`, `slack_post`, …). */
    readonly tool: string;
    /** Whether third-party text was in the conversation when it was written. */
    readonly taint: Taint;
    readonly runId?: string;
    readonly goal?: GoalRef;
    readonly text?: string;
    readonly draftId?: string;
  }): Recorded<{ readonly draftId: string }>;
  parkQuestion(question?: {
    readonly purpose?: 'goal' | 'ordinary';
    readonly goal?: GoalRef;
    readonly questionId?: string;
  }): Recorded<{ readonly questionId: string }>;
  triageRequest(requestId: string): Recorded<void>;
  linkRequestDraft(requestId: string, draftId: string): Recorded<void>;
  startWorkflow(workflow?: {
    readonly taskId?: string;
    readonly workflowId?: string;
  }): Recorded<{ readonly workflowId: string }>;
  verifyWorkflow(
    workflowId: string,
    check: { readonly check: 'artifact' | 'delivery'; readonly passed: boolean },
  ): Recorded<void>;
  readonly outcomes: OutcomeRecorder;
}

/** A session id in mecha's form: the start time to the second, then eight hex digits. */
export function newSessionId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').slice(0, 15);
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}

const withId = <T>(written: E.Either<WriteFailure, void>, value: T): E.Either<WriteFailure, T> =>
  E.map(() => value)(written);

/** Builds the recorder of outcomes for a home (see {@link OutcomeRecorder}). */
export function createOutcomeRecorder(home: MechaHome): OutcomeRecorder {
  const context = contextOf(home);
  const now = () => context.clock().toISOString();
  const draftOutcome = (
    draftId: string,
    outcome: 'sent_unchanged' | 'sent_edited' | 'rejected' | 'cancelled',
    sender: Actor,
    words: { readonly reason?: string | undefined; readonly text?: string | undefined } = {},
  ) =>
    home.outbox.append([
      {
        v: 2,
        type: 'outcome',
        at: now(),
        draft_id: draftId,
        outcome,
        sender,
        ...(words.reason === undefined ? {} : { reason: words.reason }),
        ...(words.text === undefined ? {} : { text: words.text }),
      },
    ]);
  const question = (questionId: string, type: 'answered' | 'abandoned', text?: string) =>
    home.questions.append([
      { v: 1, type, at: now(), question_id: questionId, ...(text === undefined ? {} : { text }) },
    ]);
  const request = (requestId: string, type: 'needs_info' | 'closed') =>
    home.requests.append([{ v: 1, type, at: now(), request_id: requestId }]);
  const workflow = (workflowId: string, type: 'closed' | 'cancelled' | 'reopened') =>
    home.workflows.append([{ v: 1, type, at: now(), workflow_id: workflowId }]);
  return {
    sendDraft: (draftId, { sender }) => draftOutcome(draftId, 'sent_unchanged', sender),
    sendEditedDraft: (draftId, { sender, text }) =>
      draftOutcome(draftId, 'sent_edited', sender, { text }),
    rejectDraft: (draftId, { sender, reason }) =>
      draftOutcome(draftId, 'rejected', sender, { reason }),
    cancelDraft: (draftId, { sender }) => draftOutcome(draftId, 'cancelled', sender),
    answerQuestion: (questionId, options = {}) => question(questionId, 'answered', options.text),
    abandonQuestion: (questionId) => question(questionId, 'abandoned'),
    receiveRequest: async (options = {}) => {
      const requestId = options.requestId ?? context.newId('req');
      const written = await home.requests.append([
        { v: 1, type: 'received', at: now(), request_id: requestId },
      ]);
      return withId(written, { requestId });
    },
    markRequestNeedsInfo: (requestId) => request(requestId, 'needs_info'),
    closeRequest: (requestId) => request(requestId, 'closed'),
    closeWorkflow: (workflowId) => workflow(workflowId, 'closed'),
    cancelWorkflow: (workflowId) => workflow(workflowId, 'cancelled'),
    reopenWorkflow: (workflowId) => workflow(workflowId, 'reopened'),
    reportOwnerOutcome: async (outcome) => {
      const outcomeId = outcome.outcomeId ?? context.newId('outcome');
      const written = await home.ownerOutcomes.append([
        {
          v: 1,
          outcome_id: outcomeId,
          at: now(),
          draft_id: outcome.draftId,
          session_id: outcome.sessionId,
          kind: outcome.kind,
          ...(outcome.commitmentId === undefined ? {} : { commitment_id: outcome.commitmentId }),
        },
      ]);
      return withId(written, { outcomeId });
    },
  };
}

function runRecorder(
  home: MechaHome,
  sessionId: string,
  runId: string,
  tools: readonly string[] | undefined,
  start: TranscriptEvent,
): RunRecorder {
  const context = contextOf(home);
  let ended = false;
  // What the run recorded since the model last ticked a plan step off: the next step's span.
  let span: TranscriptEvent[] = [];
  let stepsCounted = false;
  // The detector sees what the record holds, in order: this run's start, its calls and results.
  const boredom = boredomDetector();
  boredom.observe({
    v: 1,
    at: context.clock().toISOString(),
    run_id: runId,
    type: 'run_start',
    session_id: sessionId,
    surface: 'cli',
    session_kind: 'ordinary',
    ...(tools === undefined ? {} : { tools: [...tools] }),
  });
  const write = async (event: TranscriptEventInput): Recorded<void> => {
    if (ended) {
      return E.left({
        kind: 'refused',
        message: `run ${runId} has ended; start a new run to record more`,
      });
    }
    const written = await home.sessions.append(sessionId, [event]);
    if (E.isRight(written)) {
      // Written, so valid: read back as the event the span is appraised from.
      const recorded = transcriptEventSchema.safeParse(event);
      if (recorded.success) span.push(recorded.data);
    }
    return written;
  };
  // The first tick or reopen records both step counters at 0: the run tracks steps.
  const countSteps = async (): Recorded<void> => {
    if (stepsCounted) return E.right(undefined);
    const zero = await write({ ...base(), type: 'counter', name: 'null_steps', value: 0 });
    if (E.isLeft(zero)) return zero;
    const counted = await write({ ...base(), type: 'counter', name: 'reopened_steps', value: 0 });
    if (E.isRight(counted)) stepsCounted = true;
    return counted;
  };
  const base = () => ({ v: 1 as const, at: context.clock().toISOString(), run_id: runId });
  return {
    sessionId,
    runId,
    message: async (event) => {
      const messageId = event.messageId ?? context.newId('msg');
      const written = await write({
        ...base(),
        type: 'message',
        turn: event.turn,
        message_id: messageId,
        role: event.role,
        taint: event.taint,
        ...(event.text === undefined ? {} : { text: event.text }),
        ...(event.promptTokens === undefined ? {} : { prompt_tokens: event.promptTokens }),
      });
      return withId(written, { messageId });
    },
    toolCall: async (event) => {
      const callId = event.callId ?? context.newId('call');
      const call = {
        ...base(),
        type: 'tool_call' as const,
        turn: event.turn,
        call_id: callId,
        tool: event.tool,
        ...(event.target === undefined ? {} : { target: event.target }),
        ...(event.argsDigest === undefined ? {} : { args_digest: event.argsDigest }),
      };
      const written = await write(call);
      if (E.isRight(written)) boredom.observe(call);
      return withId(written, { callId });
    },
    toolResult: async (event) => {
      const result = {
        ...base(),
        type: 'tool_result' as const,
        turn: event.turn,
        call_id: event.callId,
        status: event.status,
        taint: event.taint,
        ...(event.resultDigest === undefined ? {} : { result_digest: event.resultDigest }),
        ...(event.text === undefined ? {} : { text: event.text }),
      };
      const written = await write(result);
      if (E.isLeft(written)) return written;
      const notice = boredom.observe(result);
      if (notice === undefined) return E.right({});
      // One counter event per notice: `sessions health` sums them, and the contribution table
      // signs each rung.
      const counted = await write({ ...base(), type: 'counter', name: 'boredom_notice', value: 1 });
      return withId(counted, { boredom: notice });
    },
    intervention: (event) =>
      write({ ...base(), type: 'intervention', turn: event.turn, kind: event.kind }),
    stepCheck: (event) =>
      write({
        ...base(),
        type: 'step_check',
        turn: event.turn,
        step_id: event.stepId,
        passed: event.passed,
      }),
    stepDone: async ({ stepId }) => {
      const step = appraiseStep(stepId, start, span);
      const counted = await countSteps();
      if (E.isLeft(counted)) return counted;
      if (step.isNull) {
        const nulled = await write({ ...base(), type: 'counter', name: 'null_steps', value: 1 });
        if (E.isLeft(nulled)) return nulled;
      }
      // The counters just written belong to no step: the next span starts after them.
      span = [];
      return E.right(step);
    },
    stepReopened: async () => {
      const counted = await countSteps();
      if (E.isLeft(counted)) return counted;
      const reopened = await write({
        ...base(),
        type: 'counter',
        name: 'reopened_steps',
        value: 1,
      });
      return reopened;
    },
    counter: (name, value) => write({ ...base(), type: 'counter', name, value }),
    compaction: (event) => write({ ...base(), type: 'compaction', turn: event.turn }),
    end: async (event) => {
      const written = await write({
        ...base(),
        type: 'run_end',
        stop_cause: event.stopCause,
        ...(event.turns === undefined ? {} : { turns: event.turns }),
        ...(event.conditions === undefined ? {} : { conditions: event.conditions }),
      });
      if (E.isRight(written)) ended = true;
      return written;
    },
  };
}

/**
 * Starts recording a session in a home: a new session id (or `sessionId` to go on with one, as
 * a resumed run does). Nothing is written until the first call.
 */
export function createSessionRecorder(
  home: MechaHome,
  options: { readonly sessionId?: string } = {},
): SessionRecorder {
  const context = contextOf(home);
  const sessionId = options.sessionId ?? newSessionId(context.clock());
  const now = () => context.clock().toISOString();
  return {
    sessionId,
    outcomes: createOutcomeRecorder(home),
    startRun: async (start) => {
      const runId = start.runId ?? context.newId('run');
      const startEvent = {
        v: 1 as const,
        at: now(),
        run_id: runId,
        type: 'run_start' as const,
        session_id: sessionId,
        surface: start.surface,
        session_kind: start.sessionKind ?? 'ordinary',
        ...(start.workspace === undefined ? {} : { workspace: start.workspace }),
        ...(start.goal === undefined ? {} : { goal: start.goal }),
        ...(start.configId === undefined ? {} : { config_id: start.configId }),
        ...(start.personPresent === undefined ? {} : { person_present: start.personPresent }),
        ...(start.tools === undefined ? {} : { tools: [...start.tools] }),
        ...(start.resumed === undefined ? {} : { resumed: start.resumed }),
        ...(start.conditions === undefined ? {} : { conditions: start.conditions }),
        ...(start.brief === undefined ? {} : { brief: start.brief }),
      };
      const written = await home.sessions.append(sessionId, [startEvent]);
      if (E.isLeft(written)) return written;
      return E.right(
        runRecorder(home, sessionId, runId, start.tools, transcriptEventSchema.parse(startEvent)),
      );
    },
    stageDraft: async (draft) => {
      const draftId = draft.draftId ?? context.newId('draft');
      const written = await home.outbox.append([
        {
          v: 1,
          type: 'staged',
          at: now(),
          draft_id: draftId,
          session_id: sessionId,
          tool: draft.tool,
          taint: draft.taint,
          ...(draft.runId === undefined ? {} : { run_id: draft.runId }),
          ...(draft.goal === undefined ? {} : { goal: draft.goal }),
          ...(draft.text === undefined ? {} : { text: draft.text }),
        },
      ]);
      return withId(written, { draftId });
    },
    parkQuestion: async (question = {}) => {
      const questionId = question.questionId ?? context.newId('q');
      const written = await home.questions.append([
        {
          v: 1,
          type: 'parked',
          at: now(),
          question_id: questionId,
          session_id: sessionId,
          purpose: question.purpose ?? 'ordinary',
          ...(question.goal === undefined ? {} : { goal: question.goal }),
        },
      ]);
      return withId(written, { questionId });
    },
    triageRequest: (requestId) =>
      home.requests.append([
        { v: 1, type: 'triaged', at: now(), request_id: requestId, session_id: sessionId },
      ]),
    linkRequestDraft: (requestId, draftId) =>
      home.requests.append([
        { v: 1, type: 'draft_linked', at: now(), request_id: requestId, draft_id: draftId },
      ]),
    startWorkflow: async (workflow = {}) => {
      const workflowId = workflow.workflowId ?? context.newId('wf');
      const written = await home.workflows.append([
        {
          v: 1,
          type: 'started',
          at: now(),
          workflow_id: workflowId,
          session_id: sessionId,
          ...(workflow.taskId === undefined ? {} : { task_id: workflow.taskId }),
        },
      ]);
      return withId(written, { workflowId });
    },
    verifyWorkflow: (workflowId, check) =>
      home.workflows.append([
        {
          v: 1,
          type: 'verified',
          at: now(),
          workflow_id: workflowId,
          check: check.check,
          passed: check.passed,
          session_id: sessionId,
        },
      ]),
  };
}
