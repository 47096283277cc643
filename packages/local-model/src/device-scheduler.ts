import type { CompletionModel, CompletionRequest, CompletionResult } from './completion-model.js';
import type { DeviceLease } from './device-lease.js';
import { ModelDisposedError } from './model-disposed-error.js';

/** Who is asking for the device: a person waiting (foreground) or work that can wait (background). */
export type DevicePriority = 'foreground' | 'background';

/** A completion as the scheduler returns it: `preempted` when foreground work cancelled it. */
export interface ScheduledResult extends CompletionResult {
  /** True when this background generation was stopped because foreground work arrived. */
  readonly preempted: boolean;
}

/** One resident model shared by every caller, with two priorities. */
export interface DeviceScheduler {
  /** Runs one completion at `priority`; calls of one priority run in call order. */
  complete(request: CompletionRequest, priority: DevicePriority): Promise<ScheduledResult>;
  /**
   * Embeds `texts` at `priority` with the model's own embeddings, in turn with completions and on
   * the machine's lease like them (an embedding is a few short evaluations: it is never cut short,
   * and a background embedding yields the device only when it ends). Rejects when the model has
   * no embeddings.
   */
  embed(
    texts: readonly string[],
    priority: DevicePriority,
  ): Promise<readonly (readonly number[])[]>;
  /**
   * The same model seen at one priority, for callers that take a plain `CompletionModel` (its
   * `countTokens` and `contextSize` pass through; its `dispose` does nothing: dispose the scheduler).
   */
  at(priority: DevicePriority): CompletionModel;
  /** What is running now, if anything. */
  running(): DevicePriority | undefined;
  /** Waiting calls per priority. */
  waiting(): { readonly foreground: number; readonly background: number };
  /** Refuses new work, lets the running call end, and disposes the model. */
  dispose(): Promise<void>;
}

/** What a call cancelled before it started returns. */
const notStarted: CompletionResult = {
  text: '',
  stopReason: 'aborted',
  tokens: { prompt: 0, completion: 0 },
  timings: { loadMs: 0, promptMs: 0, generationMs: 0 },
};

interface Job {
  readonly priority: DevicePriority;
  readonly controller: AbortController;
  preempted: boolean;
  /** Whether a foreground arrival cancels it (a generation) or lets it end (an embedding). */
  readonly preemptible: boolean;
  /** The caller's own signal, if any. */
  readonly signal: AbortSignal | undefined;
  /** Runs on the device; `yieldToOthers` is called at every token of a background generation. */
  readonly work: (signal: AbortSignal, yieldToOthers: (() => void) | undefined) => Promise<void>;
  /** Answers the caller when the job never got the device (its signal aborted first). */
  readonly notStarted: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Runs one job: takes the machine's lease at its priority (when there is one), and lets a
 * pre-emptible background job yield, cancelled at its next token, when another process wants the
 * device for the foreground.
 */
async function runJob(lease: DeviceLease | undefined, job: Job): Promise<void> {
  const signal = job.signal
    ? AbortSignal.any([job.signal, job.controller.signal])
    : job.controller.signal;
  let release: (() => void) | undefined;
  try {
    if (lease) {
      release = await lease.acquire(job.priority, signal);
      if (!release) {
        job.notStarted();
        return;
      }
    }
    const yieldToOthers =
      lease && job.priority === 'background' && job.preemptible
        ? () => {
            if (!signal.aborted && lease.foregroundWanted()) {
              job.preempted = true;
              job.controller.abort();
            }
          }
        : undefined;
    await job.work(signal, yieldToOthers);
  } catch (error) {
    job.reject(error);
  } finally {
    release?.();
  }
}

/**
 * The model seen at one priority: completions and embeddings take their turn (and the machine's
 * lease) through the scheduler; counting tokens and the context size pass straight through; its
 * `dispose` does nothing.
 */
function atPriority(
  model: CompletionModel,
  complete: (request: CompletionRequest) => Promise<ScheduledResult>,
  embed: (texts: readonly string[]) => Promise<readonly (readonly number[])[]>,
): CompletionModel {
  return {
    identity: () => model.identity(),
    complete,
    // Counting tokens and reading the context size need no turn on the device.
    ...(model.countTokens
      ? { countTokens: (text: string) => model.countTokens?.(text) ?? Promise.resolve(0) }
      : {}),
    ...(model.contextSize
      ? { contextSize: () => model.contextSize?.() ?? Promise.resolve(0) }
      : {}),
    ...(model.embed ? { embed } : {}),
    dispose: async () => {},
  };
}

/** The request as the device runs it: under `signal`, yielding (when asked to) at every token. */
function onDevice(
  request: CompletionRequest,
  signal: AbortSignal,
  yieldToOthers: (() => void) | undefined,
): CompletionRequest {
  const onToken = request.onToken;
  return {
    ...request,
    signal,
    ...(yieldToOthers || onToken
      ? {
          onToken: (emitted: number) => {
            yieldToOthers?.();
            onToken?.(emitted);
          },
        }
      : {}),
  };
}

/**
 * Shares one resident model between distill, the appraiser and any other caller. Foreground
 * calls run before any waiting background call, and a foreground call that arrives while a
 * background generation runs cancels it at the model's next decoder boundary (between tokens;
 * before prompt evaluation when it has not started): the background result comes back with
 * stop reason `aborted` and `preempted: true`, and its caller decides what that means.
 */
export function createDeviceScheduler(
  model: CompletionModel,
  options: {
    /**
     * The machine's device lease: each call first takes it at its priority (waiting while another
     * process uses the device), and a background call yields it, cancelled at the next token with
     * `preempted: true`, as soon as another process wants it for the foreground.
     */
    readonly lease?: DeviceLease;
  } = {},
): DeviceScheduler {
  const { lease } = options;
  const queues: Record<DevicePriority, Job[]> = { foreground: [], background: [] };
  let current: Job | undefined;
  let disposed = false;
  let idle: (() => void) | undefined;

  function pump(): void {
    if (current) return;
    const job = queues.foreground.shift() ?? queues.background.shift();
    if (!job) {
      idle?.();
      return;
    }
    current = job;
    runJob(lease, job).finally(() => {
      current = undefined;
      pump();
    });
  }

  function enqueue(job: Job): void {
    queues[job.priority].push(job);
    if (
      job.priority === 'foreground' &&
      current?.priority === 'background' &&
      current.preemptible
    ) {
      current.preempted = true;
      current.controller.abort();
    }
    pump();
  }

  function complete(
    request: CompletionRequest,
    priority: DevicePriority,
  ): Promise<ScheduledResult> {
    if (disposed) return Promise.reject(new ModelDisposedError());
    return new Promise<ScheduledResult>((resolve, reject) => {
      const job: Job = {
        priority,
        controller: new AbortController(),
        preempted: false,
        preemptible: true,
        signal: request.signal,
        reject,
        notStarted: () => resolve({ ...notStarted, preempted: job.preempted }),
        async work(signal, yieldToOthers) {
          const result = await model.complete(onDevice(request, signal, yieldToOthers));
          resolve({ ...result, preempted: job.preempted && result.stopReason === 'aborted' });
        },
      };
      enqueue(job);
    });
  }

  function embed(
    texts: readonly string[],
    priority: DevicePriority,
  ): Promise<readonly (readonly number[])[]> {
    if (disposed) return Promise.reject(new ModelDisposedError());
    const embedder = model.embed?.bind(model);
    if (!embedder) return Promise.reject(new Error('this model has no embeddings'));
    return new Promise((resolve, reject) => {
      enqueue({
        priority,
        controller: new AbortController(),
        preempted: false,
        preemptible: false,
        signal: undefined,
        reject,
        notStarted: () => reject(new ModelDisposedError()),
        work: async () => resolve(await embedder(texts)),
      });
    });
  }

  return {
    complete,
    embed,
    at: (priority) =>
      atPriority(
        model,
        (request) => complete(request, priority),
        (texts) => embed(texts, priority),
      ),
    running: () => current?.priority,
    waiting: () => ({ foreground: queues.foreground.length, background: queues.background.length }),
    async dispose() {
      if (disposed) return;
      disposed = true;
      if (current || queues.foreground.length > 0 || queues.background.length > 0) {
        await new Promise<void>((resolve) => {
          idle = resolve;
        });
      }
      await model.dispose();
    },
  };
}
