import type { CompletionModel, CompletionRequest, CompletionResult } from './completion-model.js';
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
  /** The same model seen at one priority, for callers that take a plain `CompletionModel`. */
  at(priority: DevicePriority): CompletionModel;
  /** What is running now, if anything. */
  running(): DevicePriority | undefined;
  /** Waiting calls per priority. */
  waiting(): { readonly foreground: number; readonly background: number };
  /** Refuses new work, lets the running call end, and disposes the model. */
  dispose(): Promise<void>;
}

interface Job {
  readonly request: CompletionRequest;
  readonly priority: DevicePriority;
  readonly controller: AbortController;
  preempted: boolean;
  readonly resolve: (result: ScheduledResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Shares one resident model between distill, the appraiser and any other caller. Foreground
 * calls run before any waiting background call, and a foreground call that arrives while a
 * background generation runs cancels it at the model's next decoder boundary (between tokens;
 * before prompt evaluation when it has not started): the background result comes back with
 * stop reason `aborted` and `preempted: true`, and its caller decides what that means.
 */
export function createDeviceScheduler(model: CompletionModel): DeviceScheduler {
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
    const signal = job.request.signal
      ? AbortSignal.any([job.request.signal, job.controller.signal])
      : job.controller.signal;
    model
      .complete({ ...job.request, signal })
      .then(
        (result) =>
          job.resolve({ ...result, preempted: job.preempted && result.stopReason === 'aborted' }),
        job.reject,
      )
      .finally(() => {
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
    at(priority) {
      return {
        identity: () => model.identity(),
        complete: (request) => complete(request, priority),
        dispose: async () => {},
      };
    },
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
