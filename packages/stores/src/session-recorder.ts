import { randomBytes } from 'node:crypto';
import {
  type ConditionsSnapshot,
  type GoalRef,
  type SessionKind,
  type SituationBriefRecord,
  type Taint,
  transcriptEventSchema,
} from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { contextOf, type MechaHome } from './home-context.js';
import { createOutcomeRecorder, type OutcomeRecorder, withId } from './outcome-recorder.js';
import { type RunRecorder, runRecorder } from './run-recorder.js';
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
