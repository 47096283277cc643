import {
  appraiseStep,
  type ConditionsSnapshot,
  type StepAppraisal,
  type StopCause,
  type Taint,
  type TranscriptEvent,
  transcriptEventSchema,
} from '@mecha/appraisal-core';
import { type BoredomNotice, boredomDetector } from '@mecha/homeostat';
import * as E from 'fp-ts/lib/Either.js';
import { contextOf, type MechaHome } from './home-context.js';
import { withId } from './outcome-recorder.js';
import type { Recorded } from './session-recorder.js';
import type { TranscriptEventInput } from './store-schemas.js';

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

/** One run's writer: what every recorder call goes through, and the state the calls share. */
interface RunWriter {
  readonly context: ReturnType<typeof contextOf>;
  /** The detector sees what the record holds, in order: this run's start, its calls and results. */
  readonly boredom: ReturnType<typeof boredomDetector>;
  /** The fields every event of the run starts with. */
  base(): { readonly v: 1; readonly at: string; readonly run_id: string };
  /** Appends one event, unless the run has ended; a written one joins the step's span. */
  write(event: TranscriptEventInput): Recorded<void>;
  /** The first tick or reopen records both step counters at 0: the run tracks steps. */
  countSteps(): Recorded<void>;
  /** What the run recorded since the model last ticked a plan step off. */
  span(): readonly TranscriptEvent[];
  /** Starts the next step's span. */
  clearSpan(): void;
  /** Refuses every later write. */
  markEnded(): void;
}

function runWriter(
  home: MechaHome,
  sessionId: string,
  runId: string,
  tools: readonly string[] | undefined,
): RunWriter {
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
  const base = () => ({ v: 1 as const, at: context.clock().toISOString(), run_id: runId });
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
  return {
    context,
    boredom,
    base,
    write,
    countSteps: async () => {
      if (stepsCounted) return E.right(undefined);
      const zero = await write({ ...base(), type: 'counter', name: 'null_steps', value: 0 });
      if (E.isLeft(zero)) return zero;
      const counted = await write({ ...base(), type: 'counter', name: 'reopened_steps', value: 0 });
      if (E.isRight(counted)) stepsCounted = true;
      return counted;
    },
    span: () => span,
    clearSpan: () => {
      span = [];
    },
    markEnded: () => {
      ended = true;
    },
  };
}

/** The run's conversation: messages, tool calls and results (with boredom), interventions. */
function conversationCalls(
  w: RunWriter,
): Pick<RunRecorder, 'message' | 'toolCall' | 'toolResult' | 'intervention'> {
  const { base, write, context, boredom } = w;
  return {
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
  };
}

/** The run's plan steps: checks, ticks (appraised over their span) and reopens. */
function stepCalls(
  w: RunWriter,
  start: TranscriptEvent,
): Pick<RunRecorder, 'stepCheck' | 'stepDone' | 'stepReopened'> {
  const { base, write, countSteps } = w;
  return {
    stepCheck: (event) =>
      write({
        ...base(),
        type: 'step_check',
        turn: event.turn,
        step_id: event.stepId,
        passed: event.passed,
      }),
    stepDone: async ({ stepId }) => {
      const step = appraiseStep(stepId, start, w.span());
      const counted = await countSteps();
      if (E.isLeft(counted)) return counted;
      if (step.isNull) {
        const nulled = await write({ ...base(), type: 'counter', name: 'null_steps', value: 1 });
        if (E.isLeft(nulled)) return nulled;
      }
      // The counters just written belong to no step: the next span starts after them.
      w.clearSpan();
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
  };
}

/** The recorder of one run, started by `SessionRecorder.startRun` with its start event. */
export function runRecorder(
  home: MechaHome,
  sessionId: string,
  runId: string,
  tools: readonly string[] | undefined,
  start: TranscriptEvent,
): RunRecorder {
  const w = runWriter(home, sessionId, runId, tools);
  const { base, write } = w;
  return {
    sessionId,
    runId,
    ...conversationCalls(w),
    ...stepCalls(w, start),
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
      if (E.isRight(written)) w.markEnded();
      return written;
    },
  };
}
