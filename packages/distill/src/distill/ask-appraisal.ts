import type { TranscriptEvent } from '@mecha/appraisal-core';
import type { ChatPrompt } from '@mecha/local-model';
import { type sessionTaint, taintWord } from '../session-taint.js';
import {
  appraisalPrompt,
  buildTextAppraisal,
  parseAppraisalAnswer,
  type TextAppraisal,
} from '../text-appraisal.js';
import { askFollowUp } from './ask-follow-up.js';
import type { DistillRun } from './distill-run.js';
import type { WorkContext } from './work-context.js';

/** The follow-up's answer: an appraisal to keep, none, or a stop before the push. */
export type AppraisalStep =
  | { readonly state: 'appraised'; readonly appraisal: TextAppraisal | undefined }
  | { readonly state: 'aborted' };

/**
 * Asks the follow-up question for a session's text appraisal, unless it is off, the store
 * could not be read, or the session already has one. A failed follow-up is counted and the
 * push goes on; an abort stops the session before its push.
 */
export async function askAppraisal(
  run: DistillRun,
  index: number,
  session: {
    readonly sessionId: string;
    readonly prompt: ChatPrompt;
    readonly reply: string;
    readonly taint: ReturnType<typeof sessionTaint>;
    readonly events: readonly TranscriptEvent[];
    /** Up to three earlier clean appraisals of the same situation and goal, as lines. */
    readonly earlier: readonly string[];
  },
  work: WorkContext,
): Promise<AppraisalStep> {
  const { appraisals } = run.tally;
  const { sessionId } = session;
  if (run.options.appraise === false) return { state: 'appraised', appraisal: undefined };
  if (work.appraised === undefined) {
    appraisals.storeUnreadable = true;
    return { state: 'appraised', appraisal: undefined };
  }
  if (work.appraised.has(sessionId)) {
    appraisals.onRecord += 1;
    return { state: 'appraised', appraisal: undefined };
  }
  run.progress(index, sessionId, 'appraising');
  const asked = await askFollowUp(
    run,
    appraisalPrompt(session.prompt, session.reply, session.earlier),
    { grammar: run.appraisalGrammar, maxTokens: run.options.appraisalMaxTokens ?? 2_048 },
    parseAppraisalAnswer,
  );
  if (asked.state === 'aborted') return asked;
  if (asked.state === 'failed') {
    appraisals.failed += 1;
    return { state: 'appraised', appraisal: undefined };
  }
  return {
    state: 'appraised',
    appraisal: buildTextAppraisal(asked.answer, {
      sessionId,
      at: run.clock().toISOString(),
      taint: taintWord(session.taint),
      events: session.events,
      directory: work.directory,
    }),
  };
}
