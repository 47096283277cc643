import type { Actor } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { contextOf, type MechaHome } from './home-context.js';
import type { Recorded } from './session-recorder.js';
import type { WriteFailure } from './write-failure.js';

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

export const withId = <T>(
  written: E.Either<WriteFailure, void>,
  value: T,
): E.Either<WriteFailure, T> => E.map(() => value)(written);

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
