import type { StopCause } from '@mecha/appraisal-core';
import {
  type AdapterRun,
  type AdapterSessionOptions,
  adapterSession,
  contentDigest as digestOf,
} from '@mecha/stores';

// Nothing of @openai/agents-core is imported, types included: the app's own copy runs, and the
// published declarations do not depend on the SDK's.

/** How an OpenAI Agents SDK app's runs are recorded. */
export interface OpenAIAgentsOptions extends AdapterSessionOptions {
  /** Who the user input is from: the `owner` (the default) or a `third_party` (tainted). */
  readonly userRole?: 'owner' | 'third_party';
  /** What a tool call acts on (a path, a URL), for the boredom detector. */
  readonly targetOf?: (toolName: string, input: unknown) => string | undefined;
}

type Pending = { readonly callId: string; readonly toolName: string };

/** The part of a run's result the adapter reads: the tool approvals it stopped on. */
export interface AgentsRunResult {
  readonly interruptions: readonly {
    readonly rawItem: unknown;
    readonly name?: string | undefined;
  }[];
}

/** A resumed run's input: the SDK's `RunState`, read for its approval record. */
interface ResumedState {
  readonly _context: {
    isToolApproved(call: { toolName: string; callId: string }): boolean | undefined;
  };
}

/** The recorder of one conversation: `run(runner, input, () => runner.run(agent, input))`. */
export interface OpenAIAgentsRecorder {
  readonly sessionId: string;
  /**
   * Records one `runner.run(…)` as a mecha run: subscribes to the runner's hooks, calls `start`
   * and reads what it returns. `input` is what the call is given (a string, input items, or a
   * resumed `RunState`, whose approval record holds the owner's answers); `signal` is the
   * call's abort signal, if any. The result (or the error) is handed back unchanged.
   */
  run<R extends AgentsRunResult>(
    runner: object,
    input: unknown,
    start: () => Promise<R>,
    options?: { readonly signal?: AbortSignal },
  ): Promise<R>;
}

function isRunState(input: unknown): input is ResumedState {
  return (
    typeof input === 'object' && input !== null && !Array.isArray(input) && '_context' in input
  );
}

function userText(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return undefined;
  const last = input.findLast((item) => (item as { role?: unknown }).role === 'user') as
    | { content?: unknown }
    | undefined;
  if (typeof last?.content === 'string') return last.content;
  if (!Array.isArray(last?.content)) return undefined;
  const texts = (last.content as { type?: string; text?: string }[])
    .filter((part) => part.type === 'input_text' && typeof part.text === 'string')
    .map((part) => part.text as string);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/** The stop cause of a run that threw, by the SDK's error class; `undefined` if not the SDK's. */
export function stopCauseOfError(error: unknown): { cause: StopCause; counter?: string } {
  const name = (error as { constructor?: { name?: string } } | undefined)?.constructor?.name;
  switch (name) {
    case 'MaxTurnsExceededError':
      return { cause: 'turn_ceiling' };
    case 'InputGuardrailTripwireTriggered':
    case 'OutputGuardrailTripwireTriggered':
    case 'ToolInputGuardrailTripwireTriggered':
    case 'ToolOutputGuardrailTripwireTriggered':
      // The harness's own guardrail stopped the run: counted on the run, not an owner's act.
      return { cause: 'error', counter: 'guardrail_tripwire' };
    case 'ModelTimeoutError':
    case 'ToolTimeoutError':
      return { cause: 'interrupted' };
    default:
      return { cause: 'error' };
  }
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return (
    signal?.aborted === true || (error as { name?: unknown } | undefined)?.name === 'AbortError'
  );
}

/**
 * The owner's answers to what the previous run waited on, from the SDK's approval record: an
 * approval is forgotten, a rejection is recorded as a deny and a denied result.
 */
function recordOwnerAnswers(
  run: AdapterRun,
  input: ResumedState,
  pending: Map<string, Pending>,
): void {
  for (const waiting of [...pending.values()]) {
    const approved = input._context.isToolApproved(waiting);
    if (approved === undefined) continue;
    pending.delete(waiting.callId);
    if (approved) continue;
    void run.record((recorder) => recorder.intervention({ turn: 0, kind: 'deny' }));
    void run.record((recorder) =>
      recorder.toolResult({
        turn: 0,
        callId: waiting.callId,
        status: 'denied',
        taint: 'clean',
      }),
    );
  }
}

/**
 * Records OpenAI Agents SDK runs into a mecha home through the runner's own hooks: the user's
 * input, each agent's output, tool calls and results, handoffs (a `handoff` counter), guardrail
 * trips, the runs that stop on a tool approval (`parked`), and — when such a run is resumed —
 * the owner's approvals and rejections as the SDK recorded them on the state. An abort of the
 * run's signal is the owner's stop. A missing or locked home never stops the agent.
 */
export function recordOpenAIAgents(options: OpenAIAgentsOptions = {}): OpenAIAgentsRecorder {
  const live = adapterSession(options);
  const pending = new Map<string, Pending>();
  let runs = 0;
  const role = options.userRole ?? 'owner';
  return {
    sessionId: live.sessionId,
    run: async (runner, input, start, runOptions = {}) => {
      runs += 1;
      const run: AdapterRun = live.startRun({ resumed: runs > 1 || isRunState(input) });
      let turn = 0;
      const text = userText(input);
      if (text !== undefined) {
        void run.record((recorder) =>
          recorder.message({
            turn: 0,
            role,
            taint: role === 'owner' ? 'clean' : 'third_party',
            text,
          }),
        );
      }
      if (isRunState(input)) recordOwnerAnswers(run, input, pending);
      const listeners = {
        agent_tool_start: (
          _context: unknown,
          _agent: unknown,
          tool: { name: string },
          details: { toolCall: { callId?: string; arguments?: string } },
        ) => {
          turn += 1;
          const callId = details.toolCall.callId;
          const target = options.targetOf?.(tool.name, details.toolCall.arguments);
          void run.record((recorder) =>
            recorder.toolCall({
              turn,
              tool: tool.name,
              argsDigest: digestOf(details.toolCall.arguments ?? ''),
              ...(callId === undefined ? {} : { callId }),
              ...(target === undefined ? {} : { target }),
            }),
          );
        },
        agent_tool_end: (
          _context: unknown,
          _agent: unknown,
          _tool: unknown,
          result: string,
          details: { toolCall: { callId?: string } },
        ) => {
          const callId = details.toolCall.callId;
          if (callId === undefined) return;
          void run.record((recorder) =>
            recorder.toolResult({
              turn,
              callId,
              status: 'ok',
              taint: 'clean',
              resultDigest: digestOf(result),
            }),
          );
        },
        agent_handoff: () => {
          void run.record((recorder) => recorder.counter('handoff', 1));
        },
        agent_end: (_context: unknown, _agent: unknown, output: string) => {
          turn += 1;
          const at = turn;
          void run.record((recorder) =>
            recorder.message({ turn: at, role: 'assistant', taint: 'clean', text: output }),
          );
        },
      };
      // The runner's emitter, typed per event name; the listeners above match each event.
      type Listener = (...args: never[]) => void;
      const emitter = runner as unknown as {
        on: (event: string, listener: Listener) => void;
        off: (event: string, listener: Listener) => void;
      };
      for (const [event, listener] of Object.entries(listeners)) emitter.on(event, listener);
      try {
        const result = await start();
        for (const item of result.interruptions) {
          const raw = item.rawItem as { callId?: string; name?: string };
          if (raw.callId === undefined) continue;
          pending.set(raw.callId, {
            callId: raw.callId,
            toolName: item.name ?? raw.name ?? 'unknown',
          });
        }
        await run.end(result.interruptions.length > 0 ? 'parked' : 'completed', turn);
        return result;
      } catch (error) {
        if (isAbort(error, runOptions.signal)) {
          void run.record((recorder) => recorder.intervention({ turn, kind: 'stop' }));
          await run.end('stopped', turn);
        } else {
          const stopped = stopCauseOfError(error);
          const counter = stopped.counter;
          if (counter !== undefined) void run.record((recorder) => recorder.counter(counter, 1));
          await run.end(stopped.cause, turn);
        }
        throw error;
      } finally {
        for (const [event, listener] of Object.entries(listeners)) emitter.off(event, listener);
      }
    },
  };
}
