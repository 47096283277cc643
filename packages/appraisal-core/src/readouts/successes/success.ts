import type { SignedRowId } from '../../rules/signed-entry.js';
import type { GoalRef } from '../../schemas/goal-error.js';

/** The four acts of the owner's that make something a success. */
export const successKinds = [
  'draft_sent_unchanged',
  'task_closed_done',
  'workflow_closed_after_check',
  'question_answered_then_finished',
] as const;
/** One of the four acts of the owner's that make something a success. */
export type SuccessKind = (typeof successKinds)[number];

/**
 * The contribution-table row whose positive entry each kind of success is. A workflow close
 * is a success only after a passing check; the others are every entry their row signs.
 */
export const successRows = {
  draft_sent_unchanged: 'draftSentUnchanged',
  task_closed_done: 'taskClosedDone',
  workflow_closed_after_check: 'workflowClosed',
  question_answered_then_finished: 'questionAnsweredCompleted',
} as const satisfies Record<SuccessKind, SignedRowId>;

/**
 * Where a success stands: counted; `withdrawn` by a later reopen; `unknown` when it cannot be
 * confirmed (never counted); `hidden` in a development session (counted as hidden).
 */
export type SuccessStatus = 'standing' | 'withdrawn' | 'unknown' | 'hidden';

/** Why a success could not be confirmed. */
export type SuccessUnknownReason =
  | 'closed_by_unknown'
  | 'session_gone'
  | 'session_kind_unknown'
  | 'session_unreadable'
  | 'draft_unstaged';

/** The record a success or its withdrawal rests on. */
export interface SuccessCite {
  readonly kind: 'draft' | 'closure' | 'workflow' | 'question';
  readonly id: string;
}

/** One thing that went right, as the owner's own act says, with where it stands now. */
export interface Success {
  readonly kind: SuccessKind;
  readonly status: SuccessStatus;
  /** The session the success is credited to; `null` for a sent draft with no staging record. */
  readonly session_id: string | null;
  /** When the act happened (for a question, when the resumed work finished). */
  readonly at: string;
  readonly cite: SuccessCite;
  /** The goal it was toward, when it was toward one: a task, or a question's goal. */
  readonly goal?: GoalRef;
  /** The reopen that took it back, listed beside it. */
  readonly withdrawn_by?: SuccessCite & { readonly at: string };
  readonly unknown_reason?: SuccessUnknownReason;
}
