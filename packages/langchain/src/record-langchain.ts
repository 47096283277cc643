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

interface RunState {
  readonly run: AdapterRun;
  turn: number;
  heard: boolean;
  interrupted: boolean;
}

/**
 * One conversation's recording: the top-level runs open now (each a mecha run), which run each
 * nested one belongs to, the tool calls in flight, and a handler per LangChain callback.
 */
class LangChainConversation {
  readonly live: ReturnType<typeof adapterSession>;
  private readonly role: 'owner' | 'third_party';
  private readonly runs = new Map<string, RunState>();
  private readonly rootOf = new Map<string, string>();
  private readonly tools = new Map<string, { callId: string; tool: string }>();
  private started = 0;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly options: LangChainOptions) {
    this.live = adapterSession(options);
    this.role = options.userRole ?? 'owner';
  }

  async flushed(): Promise<void> {
    await Promise.all([...this.pending]);
    await Promise.all([...this.runs.values()].map((state) => state.run.flushed()));
  }

  chainStart(inputs: unknown, runId: string, rest: unknown[]): void {
    // @langchain/core 1.4 passes the parent run's id fourth (its typings say eighth): take
    // whichever names a run already seen.
    const parentRunId = [rest[0], rest[4]].find(
      (value): value is string => typeof value === 'string' && this.rootOf.has(value),
    );
    if (parentRunId !== undefined) {
      this.root(runId, parentRunId);
      return;
    }
    const state = this.begin(runId);
    // A graph resumed with LangGraph's `Command({ resume })`: the owner answered the interrupt
    // the last run parked on, which is a steer. Read from the Command, never from any text.
    if (isResumeCommand(inputs))
      void state.run.record((run) => run.intervention({ turn: 0, kind: 'steer' }));
  }

  async chainEnd(runId: string, parentRunId: string | undefined): Promise<void> {
    if (parentRunId !== undefined) return;
    // A graph that stopped on `interrupt()` returns normally: it waits on the owner.
    const parked = this.runs.get(runId)?.interrupted === true;
    await this.finish(runId, parked ? 'parked' : 'completed', false);
  }

  async chainError(error: unknown, runId: string, parentRunId: string | undefined): Promise<void> {
    if (isGraphInterrupt(error)) {
      const state = this.stateFor(runId, parentRunId) ?? this.runs.get(runId);
      if (state !== undefined) state.interrupted = true;
      if (parentRunId !== undefined) return;
      await this.finish(runId, 'parked', false);
      return;
    }
    await this.failed(error, runId, parentRunId);
  }

  chatModelStart(
    messages: readonly (readonly unknown[])[],
    runId: string,
    parentRunId: string | undefined,
  ): void {
    const state = parentRunId === undefined ? this.begin(runId) : this.stateFor(runId, parentRunId);
    if (state === undefined || state.heard) return;
    state.heard = true;
    const human = (messages[0] ?? []).findLast((message) => kindOf(message as Message) === 'human');
    const text = human === undefined ? undefined : textOf(human as Message);
    if (text === undefined) return;
    const role = this.role;
    void state.run.record((run) =>
      run.message({ turn: 0, role, taint: role === 'owner' ? 'clean' : 'third_party', text }),
    );
  }

  async llmEnd(
    output: Parameters<MechaCallbackHandler['handleLLMEnd']>[0],
    runId: string,
    parentRunId: string | undefined,
  ): Promise<void> {
    const state = this.stateFor(runId, parentRunId) ?? this.runs.get(runId);
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
    if (parentRunId === undefined) await this.finish(runId, 'completed', false);
  }

  /** A top-level run that failed ends by its error; a nested one's failure is its parent's. */
  async failed(error: unknown, runId: string, parentRunId: string | undefined): Promise<void> {
    if (parentRunId !== undefined) return;
    const stop = stopOfError(error);
    await this.finish(runId, stop.cause, stop.ownerStop);
  }

  toolStart(
    tool: unknown,
    input: string,
    call: { runId: string; parentRunId?: string; runName?: string; toolCallId?: string },
  ): void {
    const { runId, runName, toolCallId } = call;
    const state = this.stateFor(runId, call.parentRunId);
    if (state === undefined) return;
    const name = runName ?? (tool as { name?: string }).name ?? 'unknown';
    const callId = toolCallId ?? runId;
    this.tools.set(runId, { callId, tool: name });
    const target = this.options.targetOf?.(name, input);
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
  }

  toolEnd(output: unknown, runId: string, parentRunId: string | undefined): void {
    const state = this.stateFor(runId, parentRunId);
    const call = this.tools.get(runId);
    if (state === undefined || call === undefined) return;
    this.tools.delete(runId);
    const turn = state.turn;
    const content = (output as { content?: unknown } | undefined)?.content ?? output;
    void state.run.record((run) =>
      run.toolResult({
        turn,
        callId: call.callId,
        status: 'ok',
        taint: this.options.resultTaint?.(call.tool) ?? 'clean',
        resultDigest: digestOf(content),
      }),
    );
  }

  toolError(runId: string, parentRunId: string | undefined): void {
    const state = this.stateFor(runId, parentRunId);
    const call = this.tools.get(runId);
    if (state === undefined || call === undefined) return;
    this.tools.delete(runId);
    const turn = state.turn;
    void state.run.record((run) =>
      run.toolResult({ turn, callId: call.callId, status: 'error', taint: 'clean' }),
    );
  }

  private track(work: Promise<void>): Promise<void> {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
    return work;
  }

  private root(runId: string, parentRunId: string | undefined): string {
    if (parentRunId === undefined) return runId;
    const found = this.rootOf.get(parentRunId) ?? parentRunId;
    this.rootOf.set(runId, found);
    return found;
  }

  private begin(runId: string): RunState {
    this.started += 1;
    const state: RunState = {
      run: this.live.startRun({ resumed: this.started > 1 }),
      turn: 0,
      heard: false,
      interrupted: false,
    };
    this.runs.set(runId, state);
    this.rootOf.set(runId, runId);
    return state;
  }

  private finish(runId: string, cause: StopCause, ownerStop: boolean): Promise<void> {
    const state = this.runs.get(runId);
    if (state === undefined) return Promise.resolve();
    this.runs.delete(runId);
    if (ownerStop)
      void state.run.record((run) => run.intervention({ turn: state.turn, kind: 'stop' }));
    return this.track(state.run.end(cause, state.turn));
  }

  private stateFor(runId: string, parentRunId: string | undefined): RunState | undefined {
    return this.runs.get(this.root(runId, parentRunId));
  }
}

/**
 * Records LangChain.js runs into a mecha home through a callback handler: each top-level run
 * (a chain, a runnable sequence, an agent, or a chat model called alone) is one mecha run;
 * under it the first human message, each model's answer with its prompt tokens, and each tool's
 * call and result. An aborted run (its `signal`) is the owner's stop. A missing or locked home
 * never stops the agent: one warning, and it runs on.
 */
export function recordLangChain(options: LangChainOptions = {}): LangChainRecorder {
  const conversation = new LangChainConversation(options);
  // A plain object with LangChain's callback methods, each handing its event to the conversation.
  const handler: MechaCallbackHandler = {
    awaitHandlers: true,
    handleChainStart: async (_chain, inputs, runId, ...rest) =>
      conversation.chainStart(inputs, runId, rest),
    handleChainEnd: (_outputs, runId, parentRunId) => conversation.chainEnd(runId, parentRunId),
    handleChainError: (error, runId, parentRunId) =>
      conversation.chainError(error, runId, parentRunId),
    handleChatModelStart: async (_llm, messages, runId, parentRunId) =>
      conversation.chatModelStart(messages, runId, parentRunId),
    handleLLMEnd: (output, runId, parentRunId) => conversation.llmEnd(output, runId, parentRunId),
    handleLLMError: (error, runId, parentRunId) => conversation.failed(error, runId, parentRunId),
    handleToolStart: async (
      tool,
      input,
      runId,
      parentRunId,
      _tags,
      _metadata,
      runName,
      toolCallId,
    ) =>
      conversation.toolStart(tool, input, {
        runId,
        ...(parentRunId === undefined ? {} : { parentRunId }),
        ...(runName === undefined ? {} : { runName }),
        ...(toolCallId === undefined ? {} : { toolCallId }),
      }),
    handleToolEnd: async (output, runId, parentRunId) =>
      conversation.toolEnd(output, runId, parentRunId),
    handleToolError: async (_error, runId, parentRunId) =>
      conversation.toolError(runId, parentRunId),
  };
  return {
    sessionId: conversation.live.sessionId,
    handler,
    flushed: () => conversation.flushed(),
  };
}
