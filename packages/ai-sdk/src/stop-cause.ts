import type { StopCause } from '@mecha/appraisal-core';

/** The AI SDK's unified finish reasons (`finishReason` on a step and on the finish event). */
export type AiFinishReason =
  | 'stop'
  | 'length'
  | 'content-filter'
  | 'tool-calls'
  | 'error'
  | 'interrupted'
  | 'other';

/**
 * The stop cause a finished call records: what the SDK reported, not a verdict. A call that
 * ends waiting on the owner's approval of a tool is `parked` (it waits on the owner), whatever
 * the finish reason; `length` is the token ceiling; a content filter or an error is `error`.
 */
export function stopCauseFor(finishReason: string, awaitingApproval: boolean): StopCause {
  if (awaitingApproval) return 'parked';
  switch (finishReason) {
    case 'length':
      return 'token_ceiling';
    case 'content-filter':
    case 'error':
      return 'error';
    case 'interrupted':
      return 'interrupted';
    default:
      return 'completed';
  }
}
