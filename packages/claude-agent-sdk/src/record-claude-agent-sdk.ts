import {
  type ClaudeToolOutcome,
  claudeOutcomeRecord,
  claudeResultStopCause,
  claudeToolTarget,
  type StopCause,
  type Taint,
} from '@mecha/appraisal-core';
import {
  type AdapterRun,
  type AdapterSessionOptions,
  adapterSession,
  contentDigest,
} from '@mecha/stores';

// The Claude Agent SDK's hooks, permission callback and messages as this adapter reads them:
// only the fields it uses, so nothing of the SDK is loaded at runtime, and any 0.3 `query()`
// takes what it hands out.

/** The fields of a hook's input this adapter reads (every SDK hook input has them). */
export interface ClaudeHookInput {
  /** Which hook fired (`PreToolUse`, `Stop`, …). */
  readonly hook_event_name: string;
  /** Set only when the hook fires inside a subagent: those calls are the subagent's, not recorded. */
  readonly agent_id?: string | undefined;
}
/** A hook callback, as `query()`'s `hooks` option takes it. */
export type ClaudeHookCallback = (
  input: ClaudeHookInput,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<Record<string, never>>;
/** The hooks this adapter registers, one matcher each (for `options.hooks`). */
export type ClaudeHooks = Readonly<
  Record<ClaudeHookEvent, { matcher?: string; hooks: ClaudeHookCallback[] }[]>
>;
/** The hook events recorded. */
export type ClaudeHookEvent =
  | 'UserPromptSubmit'
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'PermissionDenied'
  | 'Stop'
  | 'StopFailure'
  | 'SessionEnd';

/** The part of the SDK's permission result this adapter reads. */
export type ClaudePermissionResult =
  | { readonly behavior: 'allow' }
  | { readonly behavior: 'deny'; readonly interrupt?: boolean | undefined }
  | null;
/**
 * The app's permission callback (`canUseTool`), as far as this adapter reads it. Declared as a
 * method so the SDK's own callback type, whose options carry more fields, fits it.
 */
export type ClaudeCanUseTool = {
  check(
    toolName: string,
    input: Record<string, unknown>,
    options: { signal: AbortSignal; toolUseID: string; agentID?: string | undefined },
  ): Promise<ClaudePermissionResult>;
}['check'];

/** The options of a `query()` call this adapter merges into; the rest pass through. */
export interface ClaudeQueryOptions {
  /** The app's own hooks: kept, and the adapter's added after them. */
  readonly hooks?: Partial<Record<string, unknown[]>> | undefined;
  /** The app's permission callback: wrapped, so its denials are recorded as the owner's. */
  readonly canUseTool?: ClaudeCanUseTool | undefined;
  /** The query's abort controller: watched, so an abort is recorded as the owner's stop. */
  readonly abortController?: AbortController | undefined;
}
/** The part of the SDK's `Query` this adapter reads: its messages and `interrupt()`. */
export interface ClaudeQuery extends AsyncIterator<unknown> {
  /** The SDK's interrupt (the owner's stop button in the app). */
  interrupt(): Promise<unknown>;
}

/** How a Claude Agent SDK app's runs are recorded. */
export interface ClaudeAgentSdkOptions extends AdapterSessionOptions {
  /**
   * Who submits the prompts: the `owner` (the default) or a `third_party` (a customer, a
   * stranger): recorded as such, with third-party taint.
   */
  readonly userRole?: 'owner' | 'third_party';
  /** The taint of a tool's result; `clean` unless said (say `third_party` for `WebFetch`). */
  readonly resultTaint?: (toolName: string) => Taint;
}

/** The recorder of one conversation (a mecha session): a run per prompt the agent answers. */
export interface ClaudeAgentSdkRecorder {
  /** The mecha session the conversation is recorded into. */
  readonly sessionId: string;
  /** The hooks to pass as `query()`'s `hooks` option (or merged by {@link query}). */
  readonly hooks: ClaudeHooks;
  /** Wraps the app's permission callback: its denials are recorded as the owner's. */
  canUseTool<T extends ClaudeCanUseTool>(inner: T): T;
  /** Records the owner stopping the run when `signal` aborts (the query's `abortController`). */
  watch(signal: AbortSignal): void;
  /**
   * One line of setup: calls the app's own `query` with its params, the hooks merged into
   * `options.hooks`, `options.canUseTool` wrapped and `options.abortController` watched, and
   * returns the SDK's `Query`, whose `result` messages end the run and whose `interrupt()` is
   * recorded as the owner's.
   */
  query<P extends { readonly options?: ClaudeQueryOptions }, Q extends ClaudeQuery>(
    query: (params: P) => Q,
    params: P,
  ): Q;
  /** The id of the run in progress (or the last), once its start is recorded. */
  readonly runId: () => string | undefined;
  /** Resolves once everything asked so far is written. */
  readonly flushed: () => Promise<void>;
}

const defaultTaint: Taint = 'clean';

/** Prompt sources that are the person's: the composer, or the app's own `query()` input. */
const personSources = new Set(['user', 'sdk']);

interface Live {
  readonly run: AdapterRun;
  turn: number;
  /** Calls whose result is recorded (a hook and the permission callback may both report one). */
  readonly settled: Set<string>;
  /** The turn of the last owner act on a call, while nothing else has happened since. */
  actTurn: number | undefined;
}

type Fields = Record<string, unknown>;
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * One conversation's recording: the run in progress, a run per prompt, and what each hook,
 * permission decision, interrupt and abort records into it.
 */
class ClaudeConversation {
  readonly session: ReturnType<typeof adapterSession>;
  private readonly role: 'owner' | 'third_party';
  private readonly userTaint: Taint;
  private runs = 0;
  private live: Live | undefined;
  private lastRunId: () => string | undefined = () => undefined;

  constructor(private readonly options: ClaudeAgentSdkOptions) {
    this.session = adapterSession(options);
    this.role = options.userRole ?? 'owner';
    this.userTaint = this.role === 'owner' ? defaultTaint : 'third_party';
  }

  readonly runId = (): string | undefined => this.lastRunId();
  readonly flushed = (): Promise<void> => this.live?.run.flushed() ?? Promise.resolve();

  /** The run in progress, unless there is none or it has ended. */
  private get current(): Live | undefined {
    return this.live === undefined || this.live.run.ended() ? undefined : this.live;
  }

  private start(): Live {
    this.runs += 1;
    const run = this.session.startRun({ resumed: this.runs > 1 });
    this.lastRunId = run.runId;
    this.live = { run, turn: 0, settled: new Set(), actTurn: undefined };
    return this.live;
  }

  /** The run in progress; a new one when the last has ended (a hook with no prompt before it). */
  private open(): Live {
    return this.current ?? this.start();
  }

  end(cause: StopCause): Promise<void> {
    const current = this.current;
    if (current === undefined) return this.flushed();
    return current.run.end(cause, current.turn);
  }

  /** `UserPromptSubmit`: a prompt starts a run. */
  prompt(input: Fields): Promise<void> {
    const current = this.start();
    const prompt = text(input.prompt);
    const source = text(input.source);
    // A prompt the harness injected (a wake-up, a notification) is not the person's.
    if (prompt !== undefined && (source === undefined || personSources.has(source))) {
      const { role, userTaint } = this;
      void current.run.record((run) =>
        run.message({ turn: 0, role, taint: userTaint, text: prompt }),
      );
    }
    return current.run.flushed();
  }

  /** `PreToolUse`: a tool call, one turn each. */
  toolCall(input: Fields): Promise<void> | undefined {
    const current = this.open();
    const callId = text(input.tool_use_id);
    if (callId === undefined) return undefined;
    current.turn += 1;
    current.actTurn = undefined;
    const turn = current.turn;
    const tool = text(input.tool_name) ?? 'unknown';
    const target = claudeToolTarget(input.tool_input);
    void current.run.record((run) =>
      run.toolCall({
        turn,
        tool,
        callId,
        argsDigest: contentDigest(input.tool_input),
        ...(target === undefined ? {} : { target }),
      }),
    );
    return current.run.flushed();
  }

  /** A call's outcome, by the shared rule: its result, and the owner's act it carries. */
  outcome(callId: string, result: ClaudeToolOutcome, digest?: string, tool?: string) {
    // A result after the run ended (the interrupt that ended it was the owner's act) is dropped.
    const current = this.current;
    if (current === undefined) return this.flushed();
    if (current.settled.has(callId)) return current.run.flushed();
    current.settled.add(callId);
    const recorded = claudeOutcomeRecord(result);
    const turn = current.turn;
    const taint =
      tool === undefined ? defaultTaint : (this.options.resultTaint?.(tool) ?? defaultTaint);
    void current.run.record((run) =>
      run.toolResult({
        turn,
        callId,
        status: recorded.status,
        taint,
        ...(digest === undefined ? {} : { resultDigest: digest }),
      }),
    );
    if (recorded.act === undefined) {
      current.actTurn = undefined;
    } else if (current.actTurn !== turn) {
      // Several calls refused by one act (parallel calls, one interrupt) are one intervention.
      current.actTurn = turn;
      const kind = recorded.act;
      void current.run.record((run) => run.intervention({ turn, kind }));
    }
    return current.run.flushed();
  }

  /** The SDK's interrupt: the owner's steer, unless it is the denial just recorded. */
  interrupted(): Promise<void> {
    const current = this.current;
    if (current === undefined) return this.flushed();
    // Right after the owner's denial of a call, the interrupt is that same act.
    if (current.actTurn !== current.turn) {
      const turn = current.turn;
      void current.run.record((run) => run.intervention({ turn, kind: 'steer' }));
    }
    return current.run.end('interrupted', current.turn);
  }

  /** The query's abort signal fired: the owner stopped the run. */
  stopped(): void {
    const current = this.current;
    if (current === undefined) return;
    const turn = current.turn;
    void current.run.record((run) => run.intervention({ turn, kind: 'stop' }));
    void current.run.end('stopped', turn);
  }
}

/** The hooks of one conversation: each hook event and what it records. */
function conversationHooks(conversation: ClaudeConversation): ClaudeHooks {
  const on = (handle: (input: Fields) => Promise<unknown> | undefined): ClaudeHookCallback[] => [
    async (input) => {
      // A subagent's own calls are its sidechain, as the importer skips them.
      if (typeof input.agent_id === 'string') return {};
      await handle(input as unknown as Fields);
      return {};
    },
  ];
  return {
    UserPromptSubmit: [{ hooks: on((input) => conversation.prompt(input)) }],
    PreToolUse: [{ hooks: on((input) => conversation.toolCall(input)) }],
    PostToolUse: [
      {
        hooks: on((input) => {
          const callId = text(input.tool_use_id);
          if (callId === undefined) return undefined;
          const digest = contentDigest(input.tool_response);
          return conversation.outcome(callId, 'ok', digest, text(input.tool_name));
        }),
      },
    ],
    PostToolUseFailure: [
      {
        hooks: on((input) => {
          const callId = text(input.tool_use_id);
          if (callId === undefined) return undefined;
          // Cut by the person's interrupt: cancelled (a steer); else the tool failed.
          const result = input.is_interrupt === true ? 'cancelled' : 'error';
          return conversation.outcome(callId, result, undefined, text(input.tool_name));
        }),
      },
    ],
    PermissionDenied: [
      {
        hooks: on((input) => {
          const callId = text(input.tool_use_id);
          // The SDK's own classifier refused the call: a refusal, no person's act.
          return callId === undefined ? undefined : conversation.outcome(callId, 'denied');
        }),
      },
    ],
    Stop: [{ hooks: on(() => conversation.end('completed')) }],
    StopFailure: [{ hooks: on(() => conversation.end('error')) }],
    // The session closed: whatever was asked is written; a run still open has no known end.
    SessionEnd: [{ hooks: on(() => conversation.flushed()) }],
  };
}

/** The app's permission callback, wrapped: a denial there is the owner's rejection. */
function recordedCanUseTool<T extends ClaudeCanUseTool>(
  conversation: ClaudeConversation,
  inner: T,
): T {
  const wrapped: ClaudeCanUseTool = async (toolName, input, callOptions) => {
    const decision = await inner(toolName, input, callOptions);
    if (decision?.behavior === 'deny' && callOptions.agentID === undefined) {
      // The permission callback is where the owner is asked: a denial is their rejection.
      await conversation.outcome(callOptions.toolUseID, 'rejected');
      if (decision.interrupt === true) await conversation.interrupted();
    }
    return decision;
  };
  return wrapped as T;
}

/**
 * The SDK's `Query`, with its messages read on their way to the app (a `result` ends the run)
 * and its `interrupt()` recorded as the owner's.
 */
function recordedQuery<Q extends ClaudeQuery>(conversation: ClaudeConversation, q: Q): Q {
  const next = q.next.bind(q);
  const interrupt = q.interrupt.bind(q);
  const reading = async (...args: [] | [unknown]) => {
    const step = await next(...args);
    const message = step.value as Fields | undefined;
    if (step.done !== true && message?.type === 'result') {
      // How the run ended, by the importer's rule for a headless run's result line.
      await conversation.end(
        claudeResultStopCause(text(message.subtype), message.is_error === true),
      );
    }
    return step;
  };
  // `for await` asks the query for its iterator (the SDK hands out an inner one): this one
  // reads each message on its way to the app, and leaves the rest to the query.
  const iterator: AsyncIterableIterator<unknown> = {
    next: reading,
    ...(q.return === undefined ? {} : { return: q.return.bind(q) }),
    ...(q.throw === undefined ? {} : { throw: q.throw.bind(q) }),
    [Symbol.asyncIterator]: () => iterator,
  };
  return Object.assign(q, {
    next: reading,
    [Symbol.asyncIterator]: () => iterator,
    interrupt: async () => {
      await conversation.interrupted();
      return interrupt();
    },
  });
}

/**
 * Records Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`) runs into a mecha home: one
 * recorder per conversation, and `mecha.query(query, { prompt, options })` in place of
 * `query({ prompt, options })` (or `mecha.hooks` and `mecha.canUseTool(…)` passed by hand).
 * A prompt starts a run; tool calls and results come from `PreToolUse` / `PostToolUse` /
 * `PostToolUseFailure`; the owner's acts come only from the SDK's own permission callback,
 * interrupt and abort signal, mapped by the same rules as the Claude Code importer (a rejected
 * call is a `deny`, a call cut by an interrupt a `steer`); `Stop`, `StopFailure` and the
 * `result` message end the run. A missing or locked home never stops the agent: one warning.
 */
export function recordClaudeAgentSdk(options: ClaudeAgentSdkOptions = {}): ClaudeAgentSdkRecorder {
  const conversation = new ClaudeConversation(options);
  const hooks = conversationHooks(conversation);
  const watch = (signal: AbortSignal) => {
    const stop = () => conversation.stopped();
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  };
  const canUseTool = <T extends ClaudeCanUseTool>(inner: T): T =>
    recordedCanUseTool(conversation, inner);
  return {
    sessionId: conversation.session.sessionId,
    hooks,
    canUseTool,
    watch,
    runId: conversation.runId,
    flushed: conversation.flushed,
    query: (query, params) => {
      const given = params.options ?? {};
      const merged: Record<string, unknown[]> = { ...(given.hooks as Record<string, unknown[]>) };
      for (const [event, matchers] of Object.entries(hooks)) {
        merged[event] = [...(merged[event] ?? []), ...matchers];
      }
      if (given.abortController !== undefined) watch(given.abortController.signal);
      const q = query({
        ...params,
        options: {
          ...given,
          hooks: merged,
          ...(given.canUseTool === undefined ? {} : { canUseTool: canUseTool(given.canUseTool) }),
        },
      } as typeof params);
      return recordedQuery(conversation, q);
    },
  };
}
