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
  readonly request: CompletionRequest;
  readonly priority: DevicePriority;
  readonly controller: AbortController;
  preempted: boolean;
  readonly resolve: (result: ScheduledResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Runs one job: takes the machine's lease at its priority (when there is one), and lets a
 * background job yield, cancelled at the next token with `preempted: true`, when another
 * process wants the device for the foreground.
 */
async function runJob(
  model: CompletionModel,
  lease: DeviceLease | undefined,
  job: Job,
): Promise<void> {
  const signal = job.request.signal
    ? AbortSignal.any([job.request.signal, job.controller.signal])
    : job.controller.signal;
  let release: (() => void) | undefined;
  try {
    if (lease) {
      release = await lease.acquire(job.priority, signal);
      if (!release) {
        job.resolve({ ...notStarted, preempted: job.preempted });
        return;
      }
    }
    const onToken = job.request.onToken;
    const yieldToOthers =
      lease && job.priority === 'background'
        ? (emitted: number) => {
            if (!signal.aborted && lease.foregroundWanted()) {
              job.preempted = true;
              job.controller.abort();
            }
            onToken?.(emitted);
          }
        : onToken;
    const result = await model.complete({
      ...job.request,
      signal,
      ...(yieldToOthers ? { onToken: yieldToOthers } : {}),
    });
    job.resolve({ ...result, preempted: job.preempted && result.stopReason === 'aborted' });
  } catch (error) {
    job.reject(error);
  } finally {
    release?.();
  }
}

/**
 * The model seen at one priority: its completions go through `complete`; counting tokens, the
 * context size and embeddings pass straight through; its `dispose` does nothing.
 */
function atPriority(
  model: CompletionModel,
  complete: (request: CompletionRequest) => Promise<ScheduledResult>,
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
    // Embeddings (recall's similarity) take the model's turn in this process, between
    // completions, without the machine's lease: a few short evaluations, never pre-empted.
    ...(model.embed
      ? { embed: (texts: readonly string[]) => model.embed?.(texts) ?? Promise.resolve([]) }
      : {}),
    dispose: async () => {},
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
    runJob(model, lease, job).finally(() => {
      current = undefined;
      pump();
    });
  }

  function complete(
    request: CompletionRequest,
    priority: DevicePriority,
  ): Promise<ScheduledResult> {
    if (disposed) return Promise.reject(new ModelDisposedError());
    return new Promise<ScheduledResult>((resolve, reject) => {
      queues[priority].push({
        request,
        priority,
        controller: new AbortController(),
        preempted: false,
        resolve,
        reject,
      });
      if (priority === 'foreground' && current?.priority === 'background') {
        current.preempted = true;
        current.controller.abort();
      }
      pump();
    });
  }

  return {
    complete,
    at: (priority) => atPriority(model, (request) => complete(request, priority)),
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
