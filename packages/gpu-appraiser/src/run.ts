import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CompletionModel,
  createDeviceScheduler,
  type DeviceScheduler,
  releaseLock,
  takeLock,
} from '@mecha/local-model';
import type { AppraiserCore } from './appraiser-core.js';
import type { RunItem, RunOptions, RunReport, RunState } from './appraiser-types.js';
import { controlSince, newestControl } from './control-store.js';
import { flagSet } from './controls.js';
import { type ReservableModel, reserveKvPages } from './kv-reservation.js';
import { pendingQueue } from './queue.js';
import { recover } from './recovery.js';
import { processOne, type WorkRun } from './work-item.js';

// A run: admission (controls applied, flags, policy), the work lock, the tick gate with the
// scheduler hold, and the watch that lets a control from any process cancel the run.

/** How often a run suspended by the scheduler hold looks at the store for the release. */
const holdPollMs = 20;

const report = (state: RunState, items: RunItem[] = [], modelCalls = 0): RunReport => ({
  state,
  items,
  modelCalls,
});

const dataVersion = (core: AppraiserCore) =>
  core.db.pragma('data_version', { simple: true }) as number;

/**
 * Watches the store for controls from any process, cheaply enough for every token: SQLite's
 * `data_version` changes only when another connection (this process's or another's) commits,
 * and only then is the controls table read.
 */
function controlWatch(core: AppraiserCore, controller: AbortController, since: number) {
  let seen = dataVersion(core);
  return () => {
    if (controller.signal.aborted) return;
    const now = dataVersion(core);
    if (now === seen) return;
    seen = now;
    if (controlSince(core, since)) {
      core.running.activeReason = 'control';
      controller.abort();
    }
  };
}

/**
 * The tick gate before each model call: waits while the scheduler hold is on (checking the
 * store as it waits), then lets a control requested meanwhile cancel the run as ticks resume.
 * Answers false when the run must not start the call.
 */
async function tick(
  core: AppraiserCore,
  signal: AbortSignal,
  watch: () => void,
  queueId: number,
): Promise<boolean> {
  const { settings } = core;
  let waiting = false;
  let seen = -1;
  try {
    while (!signal.aborted) {
      const now = dataVersion(core);
      if (now !== seen) {
        seen = now;
        if (settings.get('hold') !== '1') break;
        if (!waiting) {
          waiting = true;
          settings.put('hold_waiting', JSON.stringify({ pid: process.pid, queue: queueId }));
        }
      }
      await sleep(holdPollMs, undefined, { ref: true });
    }
  } finally {
    if (waiting) settings.remove('hold_waiting');
  }
  watch();
  return !signal.aborted;
}

/** The device a run uses: the scheduler given, or one made once around the model given. */
export function deviceOf(
  model: CompletionModel | DeviceScheduler | undefined,
): () => DeviceScheduler | undefined {
  let device: DeviceScheduler | undefined;
  return () => {
    if (device) return device;
    if (!model) return undefined;
    device = 'at' in model ? model : createDeviceScheduler(model);
    return device;
  };
}

async function runLocked(
  core: AppraiserCore,
  device: () => DeviceScheduler | undefined,
  applyPending: () => unknown,
  reservable: ReservableModel | undefined,
  background: boolean,
  callerSignal: AbortSignal | undefined,
): Promise<RunReport> {
  const { settings, running } = core;
  applyPending();
  if (settings.imported()) return report('imported_configuration');
  const set = flagSet(settings.flags());
  if (!set.writes) return report('off');
  if (settings.policy() !== 'run') return report(settings.policy() as 'paused' | 'stopped');
  if (background && !set.background) return report('background_off');
  const scheduler = device();
  if (!scheduler) return report('no_model');
  const work = settings.limits();
  const pending = pendingQueue(core, work.sourceRows);
  // The page pool is reserved when the model is loaded, before it is given any input; a run with
  // nothing pending loads nothing. Refused: nothing is written and the queue is untouched.
  if (pending.length > 0 && reservable) {
    const reserved = await reserveKvPages(reservable, work.pagesPerSequence);
    if (reserved._tag === 'Left') return { ...report('unreserved'), reason: reserved.left.message };
  }
  const controller = new AbortController();
  running.active = controller;
  running.activeReason = undefined;
  const watch = controlWatch(core, controller, newestControl(core));
  const signal = callerSignal
    ? AbortSignal.any([callerSignal, controller.signal])
    : controller.signal;
  const run: WorkRun = {
    scheduler,
    priority: background ? 'background' : 'foreground',
    signal,
    counter: { calls: 0 },
    watch,
    tick: (queueId) => tick(core, signal, watch, queueId),
  };
  const items: RunItem[] = [];
  try {
    for (const queue of pending) {
      if (signal.aborted) break;
      if (run.counter.calls + 2 > work.ticks) break;
      const result = await processOne(core, run, queue);
      if (!result) break;
      items.push(result);
      if (result.state === 'interrupted') {
        return report(
          result.reason?.startsWith('call') && result.reason.includes('foreground')
            ? 'preempted'
            : 'cancelled',
          items,
          run.counter.calls,
        );
      }
    }
  } finally {
    running.active = undefined;
  }
  return report(signal.aborted ? 'cancelled' : 'done', items, run.counter.calls);
}

/** One run over the pending queue, under the work lock (busy while another run holds it). */
export async function runAppraisal(
  core: AppraiserCore,
  device: () => DeviceScheduler | undefined,
  applyPending: () => unknown,
  reservable: ReservableModel | undefined,
  options: RunOptions = {},
): Promise<RunReport> {
  if (core.running.active) return report('busy');
  const lock = takeLock(core.workLock, 'appraiser run');
  if (!lock.taken) return report('busy');
  core.running.holdingLock = true;
  try {
    if (core.recovery.deferred) recover(core);
    return await runLocked(
      core,
      device,
      applyPending,
      reservable,
      options.background === true,
      options.signal,
    );
  } finally {
    core.running.holdingLock = false;
    releaseLock(core.workLock);
  }
}
