import type { StopCause, Taint } from '@mecha/appraisal-core';
import {
  type AdapterRun,
  type AdapterSessionOptions,
  adapterSession,
  contentDigest as digestOf,
} from '@mecha/stores';
import { stopCauseFor } from './stop-cause.js';

// The AI SDK's events as this adapter reads them: only the fields it uses, so any `ai` 7 call
// (whatever its tools) can take the hooks, and nothing of `ai` is loaded at runtime.

interface Part {
  readonly type: string;
}
/** `onStart`: the messages the call was given (the SDK's standardized prompt). */
export interface AiStartEvent {
  readonly messages: readonly unknown[];
  readonly tools?: Readonly<Record<string, unknown>> | undefined;
}
/** `onStepFinish`: one step's content, text and usage. */
export interface AiStepEvent {
  readonly stepNumber: number;
  readonly text: string;
  readonly content: readonly Part[];
  readonly usage: { readonly inputTokens: number | undefined };
}
/** `onFinish`: the finish reason of the last step and the steps taken. */
export interface AiFinishEvent {
  readonly finishReason: string;
  readonly steps: readonly unknown[];
}
/** `onAbort` (streamText): the steps finished before the abort. */
export interface AiAbortEvent {
  readonly steps: readonly unknown[];
  readonly reason?: unknown;
}
/** The part of a language-model middleware this adapter implements (`wrapLanguageModel`). */
export interface AiMiddleware {
  readonly specificationVersion: 'v4';
  wrapGenerate<T>(options: {
    doGenerate: () => PromiseLike<T>;
    params: { readonly abortSignal?: AbortSignal | undefined };
  }): PromiseLike<T>;
  wrapStream<T>(options: {
    doStream: () => PromiseLike<T>;
    params: { readonly abortSignal?: AbortSignal | undefined };
  }): PromiseLike<T>;
}

/** How an AI SDK app's words are recorded. */
export interface AiSdkOptions extends AdapterSessionOptions {
  /**
   * Who the `user` messages are from: the `owner` (a person's own assistant; the default) or a
   * `third_party` (a customer, a stranger): recorded as such, with third-party taint.
   */
  readonly userRole?: 'owner' | 'third_party';
  /** What a tool call acts on (a path, a URL), for the boredom detector; none unless said. */
  readonly targetOf?: (toolName: string, input: unknown) => string | undefined;
  /** The taint of a tool's result; `clean` unless said (say `third_party` for a web fetch). */
  readonly resultTaint?: (toolName: string) => Taint;
}

/** One recorded call of `generateText` / `streamText`: its middleware and its hooks. */
export interface AiSdkRun {
  readonly sessionId: string;
  /** For `wrapLanguageModel({ model, middleware })`: sees the call's abort signal. */
  readonly middleware: AiMiddleware;
  /** Spread into the call: `generateText({ ..., ...run.hooks })`. */
  readonly hooks: {
    readonly onStart: (event: AiStartEvent) => Promise<void>;
    readonly onStepFinish: (event: AiStepEvent) => Promise<void>;
    readonly onFinish: (event: AiFinishEvent) => Promise<void>;
    readonly onAbort: (event: AiAbortEvent) => Promise<void>;
  };
  /** The run id, once its start is recorded. */
  readonly runId: () => string | undefined;
  /** Resolves once everything asked so far is written. */
  readonly flushed: () => Promise<void>;
}

/** The recorder of one conversation: `run()` once per `generateText` / `streamText` call. */
export interface AiSdkRecorder {
  readonly sessionId: string;
  run(): AiSdkRun;
}

type Message = { readonly role?: unknown; readonly content?: unknown };
type ApprovalResponse = { type: 'tool-approval-response'; approvalId: string; approved: boolean };
type ApprovalRequest = {
  type: 'tool-approval-request';
  approvalId: string;
  toolCallId?: string;
  isAutomatic?: boolean;
};

/** The taint of words the adapter records, unless the harness says otherwise. */
const defaultTaint: Taint = 'clean';

function partsOf(message: Message): readonly Part[] {
  return Array.isArray(message.content) ? (message.content as Part[]) : [];
}

function userText(message: Message): string | undefined {
  if (typeof message.content === 'string') return message.content;
  const texts = partsOf(message)
    .filter((part): part is Part & { text: string } => part.type === 'text')
    .map((part) => part.text);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/**
 * The owner's decisions the call was given: each `tool-approval-response` the app put in the
 * messages (what the approver answered, from the SDK's own approval records), with the tool
 * call it answers. A decision the SDK made by itself (its request marked `isAutomatic`: the
 * app's own policy) is not the owner's. Model text is never read for them.
 */
export function ownerDecisions(
  messages: readonly unknown[],
): { readonly toolCallId: string | undefined; readonly approved: boolean }[] {
  const requests = new Map<string, ApprovalRequest>();
  const decisions: { toolCallId: string | undefined; approved: boolean }[] = [];
  for (const message of messages as Message[]) {
    for (const part of partsOf(message)) {
      if (part.type === 'tool-approval-request') {
        const request = part as ApprovalRequest;
        requests.set(request.approvalId, request);
      }
      if (part.type === 'tool-approval-response' && message.role === 'tool') {
        const response = part as ApprovalResponse;
        const request = requests.get(response.approvalId);
        if (request?.isAutomatic === true) continue;
        decisions.push({ toolCallId: request?.toolCallId, approved: response.approved });
      }
    }
  }
  return decisions;
}

function isTimeout(reason: unknown): boolean {
  return (reason as { name?: unknown } | undefined)?.name === 'TimeoutError';
}

// A step's content part, with the fields of every kind this adapter reads.
type StepPart = Part & {
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  output?: unknown;
  error?: unknown;
  approvalId?: string;
  approved?: boolean;
  isAutomatic?: boolean;
  toolCall?: { toolCallId?: string; toolName?: string };
};

/**
 * One call's recording: the turns seen so far, the approvals still waiting on the owner, and a
 * handler per hook and per kind of step part.
 */
class AiSdkCall {
  private readonly pending = new Set<string>();
  private turns = 0;
  private readonly role: 'owner' | 'third_party';
  private readonly userTaint: Taint;

  constructor(
    private readonly live: AdapterRun,
    private readonly options: AiSdkOptions,
  ) {
    this.role = options.userRole ?? 'owner';
    this.userTaint = this.role === 'owner' ? defaultTaint : 'third_party';
  }

  stop(reason: unknown): Promise<void> {
    const live = this.live;
    if (live.ended()) return live.flushed();
    // A timeout is the SDK's own limit; any other abort is the app's stop button: the owner's.
    if (isTimeout(reason)) return live.end('interrupted', this.turns);
    void live.record((run) => run.intervention({ turn: this.turns, kind: 'stop' }));
    return live.end('stopped', this.turns);
  }

  watch(signal: AbortSignal | undefined): void {
    if (signal === undefined) return;
    if (signal.aborted) void this.stop(signal.reason);
    else signal.addEventListener('abort', () => void this.stop(signal.reason), { once: true });
  }

  onStart(event: AiStartEvent): Promise<void> {
    const live = this.live;
    const messages = event.messages as Message[];
    const last = messages.findLast((message) => message.role === 'user');
    const text = last === undefined ? undefined : userText(last);
    if (text !== undefined) {
      const { role, userTaint } = this;
      void live.record((run) => run.message({ turn: 0, role, taint: userTaint, text }));
    }
    for (const decision of ownerDecisions(messages)) {
      if (decision.approved) continue;
      // The owner said no to a call the previous run parked on: their act, and the call's end.
      void live.record((run) => run.intervention({ turn: 0, kind: 'deny' }));
      if (decision.toolCallId !== undefined) {
        const callId = decision.toolCallId;
        void live.record((run) =>
          run.toolResult({ turn: 0, callId, status: 'denied', taint: defaultTaint }),
        );
      }
    }
    return live.flushed();
  }

  onStepFinish(event: AiStepEvent): Promise<void> {
    const turn = event.stepNumber + 1;
    this.turns = turn;
    if (event.text !== '' || event.usage.inputTokens !== undefined) {
      void this.live.record((run) =>
        run.message({
          turn,
          role: 'assistant',
          taint: defaultTaint,
          ...(event.text === '' ? {} : { text: event.text }),
          ...(event.usage.inputTokens === undefined
            ? {}
            : { promptTokens: event.usage.inputTokens }),
        }),
      );
    }
    // Tool names by call id, for results that do not repeat theirs.
    const names = new Map<string, string>();
    for (const part of event.content) this.stepPart(part as StepPart, turn, names);
    return this.live.flushed();
  }

  async onFinish(event: AiFinishEvent): Promise<void> {
    const cause: StopCause = stopCauseFor(event.finishReason, this.pending.size > 0);
    await this.live.end(cause, event.steps.length);
  }

  async onAbort(event: AiAbortEvent): Promise<void> {
    await this.stop(event.reason);
  }

  private stepPart(part: StepPart, turn: number, names: Map<string, string>): void {
    if (part.type === 'tool-call' && part.toolCallId !== undefined) {
      this.toolCall(part, part.toolCallId, turn, names);
    } else if (
      (part.type === 'tool-result' || part.type === 'tool-error') &&
      part.toolCallId !== undefined
    ) {
      this.toolResult(part, part.toolCallId, turn, names);
    } else if (part.type === 'tool-approval-request' && part.approvalId !== undefined) {
      // Waiting on the owner unless the SDK decided it by itself (an automatic status).
      if (part.isAutomatic !== true) this.pending.add(part.approvalId);
    } else if (part.type === 'tool-approval-response' && part.approvalId !== undefined) {
      this.pending.delete(part.approvalId);
      const callId = part.toolCall?.toolCallId;
      // A denial decided by the app's own policy: the harness's refusal, not the owner's.
      if (part.approved === false && callId !== undefined) this.denied(callId, turn);
    } else if (part.type === 'tool-output-denied' && part.toolCallId !== undefined) {
      this.denied(part.toolCallId, turn);
    }
  }

  private toolCall(part: StepPart, callId: string, turn: number, names: Map<string, string>) {
    const tool = part.toolName ?? 'unknown';
    names.set(callId, tool);
    const target = this.options.targetOf?.(tool, part.input);
    void this.live.record((run) =>
      run.toolCall({
        turn,
        tool,
        callId,
        argsDigest: digestOf(part.input),
        ...(target === undefined ? {} : { target }),
      }),
    );
  }

  private toolResult(part: StepPart, callId: string, turn: number, names: Map<string, string>) {
    const tool = part.toolName ?? names.get(callId) ?? 'unknown';
    void this.live.record((run) =>
      run.toolResult({
        turn,
        callId,
        status: part.type === 'tool-result' ? 'ok' : 'error',
        taint: this.options.resultTaint?.(tool) ?? defaultTaint,
        ...(part.type === 'tool-result' ? { resultDigest: digestOf(part.output) } : {}),
      }),
    );
  }

  private denied(callId: string, turn: number): void {
    void this.live.record((run) =>
      run.toolResult({ turn, callId, status: 'denied', taint: defaultTaint }),
    );
  }
}

function aiSdkRun(live: AdapterRun, options: AiSdkOptions): AiSdkRun {
  const call = new AiSdkCall(live, options);
  return {
    sessionId: live.sessionId,
    runId: live.runId,
    flushed: live.flushed,
    middleware: {
      specificationVersion: 'v4',
      wrapGenerate: ({ doGenerate, params }) => {
        call.watch(params.abortSignal);
        return doGenerate();
      },
      wrapStream: ({ doStream, params }) => {
        call.watch(params.abortSignal);
        return doStream();
      },
    },
    hooks: {
      onStart: async (event) => call.onStart(event),
      onStepFinish: async (event) => call.onStepFinish(event),
      onFinish: (event) => call.onFinish(event),
      onAbort: (event) => call.onAbort(event),
    },
  };
}

/**
 * Records Vercel AI SDK calls into a mecha home. One recorder per conversation (a session);
 * `run()` per `generateText` / `streamText` call: wrap the model with `run.middleware` and
 * spread `run.hooks` into the call. Messages, tool calls and their results are recorded as the
 * SDK reports them; a tool the owner denied (a `tool-approval-response` the app passes back)
 * and an abort are the owner's acts; a denial by the app's own approval policy is the harness's
 * refusal. A missing or locked home never stops the agent: one warning, and it runs on.
 */
export function recordAiSdk(options: AiSdkOptions = {}): AiSdkRecorder {
  const live = adapterSession(options);
  let runs = 0;
  return {
    sessionId: live.sessionId,
    run: () => {
      runs += 1;
      return aiSdkRun(live.startRun({ resumed: runs > 1 }), options);
    },
  };
}
