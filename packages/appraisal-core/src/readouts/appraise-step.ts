import type { TranscriptEvent } from '../schemas/transcript.js';
import { appraiseRun, type RunAppraisal } from './appraise-run.js';

/** The reading of one plan step the model ticked off, from its tool-call span alone. */
export interface StepAppraisal {
  readonly stepId: string;
  /** Tool calls in the span. */
  readonly calls: number;
  /** Calls in the span whose result was an error (a denial is the harness's, not counted). */
  readonly failedCalls: number;
  /** Ticked off with no tool call since the last tick: a step that did nothing. */
  readonly isNull: boolean;
  /** The span read by the same rules as a run: its signed errors, valence and label. */
  readonly reading: RunAppraisal;
}

/**
 * Reads a plan step when the model ticks it off: a pure function of the events its run recorded
 * since the previous tick (the step's tool-call span), read by the contribution table exactly as
 * a run is (a failed step check signs −1.0, a boredom notice signs, and so on) with no model in
 * the path. The run's start is read with the span so that what the run was for stays in view;
 * nothing outside the span is. A span with no tool call is a null step.
 */
export function appraiseStep(
  stepId: string,
  start: TranscriptEvent | undefined,
  span: readonly TranscriptEvent[],
): StepAppraisal {
  const calls = span.filter((event) => event.type === 'tool_call').length;
  const failedCalls = span.filter(
    (event) => event.type === 'tool_result' && event.status === 'error',
  ).length;
  const events = start === undefined ? span : [start, ...span.filter((e) => e !== start)];
  return { stepId, calls, failedCalls, isNull: calls === 0, reading: appraiseRun(events) };
}
