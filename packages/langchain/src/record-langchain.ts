import type { StopCause, Taint } from '@mecha/appraisal-core';
import {
  type AdapterRun,
  type AdapterSessionOptions,
  adapterSession,
  contentDigest as digestOf,
} from '@mecha/stores';

// The callback handler is a plain object with LangChain's callback methods (LangChain wraps
// such an object itself), so nothing of @langchain/core is loaded by this package at runtime.

/** How a LangChain.js app's runs are recorded. */
export interface LangChainOptions extends AdapterSessionOptions {
  /** Who the human messages are from: the `owner` (the default) or a `third_party` (tainted). */
  readonly userRole?: 'owner' | 'third_party';
  /** What a tool call acts on (a path, a URL), for the boredom detector. */
  readonly targetOf?: (toolName: string, input: string) => string | undefined;
  /** The taint of a tool's result; `clean` unless said. */
  readonly resultTaint?: (toolName: string) => Taint;
}

type Message = {
  readonly content?: unknown;
  readonly _getType?: () => string;
  readonly type?: string;
};
type Generation = {
  readonly text?: string;
  readonly message?: { usage_metadata?: { input_tokens?: number } };
};

/** The LangChain callback methods the handler implements. */
export interface MechaCallbackHandler {
  /** LangChain awaits this handler, so a run's records are written before the call returns. */
  readonly awaitHandlers: true;
  handleChainStart(
    chain: unknown,
    inputs: unknown,
    runId: string,
    ...rest: unknown[]
  ): Promise<void>;
  handleChainEnd(outputs: unknown, runId: string, parentRunId?: string): Promise<void>;
  handleChainError(error: unknown, runId: string, parentRunId?: string): Promise<void>;
  handleChatModelStart(
    llm: unknown,
    messages: readonly (readonly unknown[])[],
    runId: string,
    parentRunId?: string,
  ): Promise<void>;
  handleLLMEnd(
    output: {
      generations?: readonly (readonly Generation[])[];
      llmOutput?: Record<string, unknown>;
    },
    runId: string,
    parentRunId?: string,
  ): Promise<void>;
  handleLLMError(error: unknown, runId: string, parentRunId?: string): Promise<void>;
  handleToolStart(
    tool: { id?: readonly string[]; name?: string } | unknown,
    input: string,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runName?: string,
    toolCallId?: string,
  ): Promise<void>;
  handleToolEnd(output: unknown, runId: string, parentRunId?: string): Promise<void>;
  handleToolError(error: unknown, runId: string, parentRunId?: string): Promise<void>;
}

/** The recorder of one conversation: pass `handler` in `callbacks`. */
export interface LangChainRecorder {
  readonly sessionId: string;
  readonly handler: MechaCallbackHandler;
  /** Resolves once everything reported so far is written. */
  flushed(): Promise<void>;
}

function kindOf(message: Message): string | undefined {
  return typeof message._getType === 'function' ? message._getType() : message.type;
}

function textOf(message: Message): string | undefined {
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return undefined;
  const texts = (message.content as { type?: string; text?: string }[])
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/** The stop cause of a top-level run that failed: an abort is the owner's stop. */
export function stopOfError(error: unknown): { cause: StopCause; ownerStop: boolean } {
  const name = (error as { name?: unknown } | undefined)?.name;
  const message = (error as { message?: unknown } | undefined)?.message;
  if (name === 'AbortError' || message === 'Aborted' || message === 'AbortError') {
    return { cause: 'stopped', ownerStop: true };
  }
  if (name === 'TimeoutError') return { cause: 'interrupted', ownerStop: false };
  return { cause: 'error', ownerStop: false };
}

/**
 * Records LangChain.js runs into a mecha home through a callback handler: each top-level run
 * (a chain, a runnable sequence, an agent, or a chat model called alone) is one mecha run;
 * under it the first human message, each model's answer with its prompt tokens, and each tool's
 * call and result. An aborted run (its `signal`) is the owner's stop. A missing or locked home
 * never stops the agent: one warning, and it runs on.
 */
/**
 * LangGraph's `Command` carrying a `resume` value, told by its own `lg_name` mark (nothing of
 * `@langchain/langgraph` is imported).
 */
function isResumeCommand(inputs: unknown): boolean {
  if (typeof inputs !== 'object' || inputs === null) return false;
  const command = inputs as { lg_name?: unknown; resume?: unknown };
  return command.lg_name === 'Command' && command.resume !== undefined;
}

/** LangGraph's `GraphInterrupt` (and its subclasses), raised inside a node by `interrupt()`. */
function isGraphInterrupt(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'GraphInterrupt' || name === 'NodeInterrupt';
}

export function recordLangChain(options: LangChainOptions = {}): LangChainRecorder {
  const live = adapterSession(options);
  const role = options.userRole ?? 'owner';
  const runs = new Map<
    string,
    { run: AdapterRun; turn: number; heard: boolean; interrupted: boolean }
  >();
  const rootOf = new Map<string, string>();
  const tools = new Map<string, { callId: string; tool: string }>();
  let started = 0;
  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
    return work;
  };
  const root = (runId: string, parentRunId: string | undefined) => {
    if (parentRunId === undefined) return runId;
    const found = rootOf.get(parentRunId) ?? parentRunId;
    rootOf.set(runId, found);
    return found;
  };
  const begin = (runId: string) => {
    started += 1;
    const state = {
      run: live.startRun({ resumed: started > 1 }),
      turn: 0,
      heard: false,
      interrupted: false,
    };
    runs.set(runId, state);
    rootOf.set(runId, runId);
    return state;
  };
  const finish = (runId: string, cause: StopCause, ownerStop: boolean) => {
    const state = runs.get(runId);
    if (state === undefined) return Promise.resolve();
    runs.delete(runId);
    if (ownerStop)
      void state.run.record((run) => run.intervention({ turn: state.turn, kind: 'stop' }));
    return track(state.run.end(cause, state.turn));
  };
  const stateFor = (runId: string, parentRunId: string | undefined) =>
    runs.get(root(runId, parentRunId));
  const handler: MechaCallbackHandler = {
    awaitHandlers: true,
    handleChainStart: async (_chain, inputs, runId, ...rest) => {
      // @langchain/core 1.4 passes the parent run's id fourth (its typings say eighth): take
      // whichever names a run already seen.
      const parentRunId = [rest[0], rest[4]].find(
        (value): value is string => typeof value === 'string' && rootOf.has(value),
      );
      if (parentRunId !== undefined) {
        root(runId, parentRunId);
        return;
      }
      const state = begin(runId);
      // A graph resumed with LangGraph's `Command({ resume })`: the owner answered the interrupt
      // the last run parked on, which is a steer. Read from the Command, never from any text.
      if (isResumeCommand(inputs))
        void state.run.record((run) => run.intervention({ turn: 0, kind: 'steer' }));
    },
    handleChainEnd: async (_outputs, runId, parentRunId) => {
      if (parentRunId !== undefined) return;
      // A graph that stopped on `interrupt()` returns normally: it waits on the owner.
      const parked = runs.get(runId)?.interrupted === true;
      await finish(runId, parked ? 'parked' : 'completed', false);
    },
    handleChainError: async (error, runId, parentRunId) => {
      if (isGraphInterrupt(error)) {
        const state = stateFor(runId, parentRunId) ?? runs.get(runId);
        if (state !== undefined) state.interrupted = true;
        if (parentRunId !== undefined) return;
        await finish(runId, 'parked', false);
        return;
      }
      if (parentRunId !== undefined) return;
      const stop = stopOfError(error);
      await finish(runId, stop.cause, stop.ownerStop);
    },
    handleChatModelStart: async (_llm, messages, runId, parentRunId) => {
      const state = parentRunId === undefined ? begin(runId) : stateFor(runId, parentRunId);
      if (state === undefined || state.heard) return;
      state.heard = true;
      const human = (messages[0] ?? []).findLast(
        (message) => kindOf(message as Message) === 'human',
      );
      const text = human === undefined ? undefined : textOf(human as Message);
      if (text === undefined) return;
      void state.run.record((run) =>
        run.message({ turn: 0, role, taint: role === 'owner' ? 'clean' : 'third_party', text }),
      );
    },
    handleLLMEnd: async (output, runId, parentRunId) => {
      const state = stateFor(runId, parentRunId) ?? runs.get(runId);
      if (state === undefined) return;
      state.turn += 1;
      const turn = state.turn;
      const generation = output.generations?.[0]?.[0];
      const promptTokens = generation?.message?.usage_metadata?.input_tokens;
      const text = generation?.text;
      void state.run.record((run) =>
        run.message({
          turn,
          role: 'assistant',
          taint: 'clean',
          ...(text === undefined || text === '' ? {} : { text }),
          ...(promptTokens === undefined ? {} : { promptTokens }),
        }),
      );
      if (parentRunId === undefined) await finish(runId, 'completed', false);
    },
    handleLLMError: async (error, runId, parentRunId) => {
      if (parentRunId !== undefined) return;
      const stop = stopOfError(error);
      await finish(runId, stop.cause, stop.ownerStop);
    },
    handleToolStart: async (
      tool,
      input,
      runId,
      parentRunId,
      _tags,
      _metadata,
      runName,
      toolCallId,
    ) => {
      const state = stateFor(runId, parentRunId);
      if (state === undefined) return;
      const name = runName ?? (tool as { name?: string }).name ?? 'unknown';
      const callId = toolCallId ?? runId;
      tools.set(runId, { callId, tool: name });
      const target = options.targetOf?.(name, input);
      const turn = state.turn;
      void state.run.record((run) =>
        run.toolCall({
          turn,
          tool: name,
          callId,
          argsDigest: digestOf(input),
          ...(target === undefined ? {} : { target }),
        }),
      );
    },
    handleToolEnd: async (output, runId, parentRunId) => {
      const state = stateFor(runId, parentRunId);
      const call = tools.get(runId);
      if (state === undefined || call === undefined) return;
      tools.delete(runId);
      const turn = state.turn;
      const content = (output as { content?: unknown } | undefined)?.content ?? output;
      void state.run.record((run) =>
        run.toolResult({
          turn,
          callId: call.callId,
          status: 'ok',
          taint: options.resultTaint?.(call.tool) ?? 'clean',
          resultDigest: digestOf(content),
        }),
      );
    },
    handleToolError: async (_error, runId, parentRunId) => {
      const state = stateFor(runId, parentRunId);
      const call = tools.get(runId);
      if (state === undefined || call === undefined) return;
      tools.delete(runId);
      const turn = state.turn;
      void state.run.record((run) =>
        run.toolResult({ turn, callId: call.callId, status: 'error', taint: 'clean' }),
      );
    },
  };
  return {
    sessionId: live.sessionId,
    handler,
    flushed: async () => {
      await Promise.all([...pending]);
      await Promise.all([...runs.values()].map((state) => state.run.flushed()));
    },
  };
}
