import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import { lockHolder, releaseLock, takeLock } from '@mecha/local-model';
import type { AppraiserCore } from './appraiser-core.js';
import type { Appraiser, RunReport, RunRequestState } from './appraiser-types.js';
import { flagSet } from './controls.js';
import { serveSql } from './sql.js';

// Serving: one process holds the model and works for every other process on the same memory.
// Others retain reports and ask for runs through the store (`requestRun`); the server answers
// each request with its report, and between requests runs background appraisal on ticks while
// the background flag and the policy allow it. Its model calls go through the device scheduler
// it is given, so foreground work of another process (a distill) pre-empts them.

/** The serve lock of a memory: held by the serving process while it serves. */
export const serveLockPath = (directory: string) => join(directory, 'serve.lock');

/** The live serving process of the memory in `core`, if any. */
export const servingProcess = (core: AppraiserCore): number | null =>
  lockHolder(serveLockPath(core.directory))?.pid ?? null;

/** Records a run request; the serving process answers it. */
export function requestRun(core: AppraiserCore, background: boolean): number {
  return core.db.prepare(serveSql.request).run(background ? 1 : 0, process.pid, core.now())
    .lastInsertRowid as number;
}

/** A run request's state and, once done, its report. */
export function runRequest(core: AppraiserCore, id: number): RunRequestState | undefined {
  const row = core.db.prepare(serveSql.read).get(id) as
    | { state: RunRequestState['state']; report: string | null }
    | undefined;
  if (!row) return undefined;
  return {
    id,
    state: row.state,
    ...(row.report === null ? {} : { report: JSON.parse(row.report) as RunReport }),
  };
}

/** What serving needs: the open appraiser, its core, the device and when to stop. */
export interface ServeLoopOptions extends ServeControl {
  readonly appraiser: Appraiser;
  readonly core: AppraiserCore;
}

/** When serving stops, and what it reports as it goes. */
export interface ServeControl {
  /** Ends serving at the next boundary; a run in progress is cancelled (recorded interrupted). */
  readonly signal: AbortSignal;
  /** How often an idle server looks at the store for new work (default 50 ms): waiting, never a deadline. */
  readonly pollMs?: number;
  /** Called once serving has begun (the serve lock is held). */
  readonly onServing?: () => void;
  /** Called after every run the server makes, with the request it answered, if any. */
  readonly onRun?: (report: RunReport, requestId: number | undefined) => void;
}

/** How serving ended: stopped on request after `runs` runs, or refused before it began. */
export type ServeResult = Either<Refusal<'refused'>, { readonly runs: number }>;

const dataVersion = (core: AppraiserCore) =>
  core.db.pragma('data_version', { simple: true }) as number;

/** Answers the oldest waiting request, if there is one; false when there was none. */
async function answerRequest(options: ServeLoopOptions): Promise<boolean> {
  const { core, appraiser, signal } = options;
  const request = core.db.prepare(serveSql.oldestWaiting).get() as
    | { id: number; background: number }
    | undefined;
  if (!request) return false;
  if (core.db.prepare(serveSql.start).run(request.id).changes === 0) return true;
  const report = await appraiser.run({ background: request.background === 1, signal });
  core.db.prepare(serveSql.done).run(JSON.stringify(report), core.now(), request.id);
  options.onRun?.(report, request.id);
  return true;
}

/**
 * One background tick: a background run when the flags, the policy and pending work allow it.
 * Work pre-empted by foreground work is queued again, so the next tick resumes it. False when
 * there was nothing to do.
 */
async function backgroundTick(options: ServeLoopOptions): Promise<boolean> {
  const { core, appraiser, signal } = options;
  appraiser.applyPending();
  const status = appraiser.status();
  if (!flagSet(core.settings.flags()).background || status.policy !== 'run') return false;
  if (status.imported || status.queue.pending === 0) return false;
  const report = await appraiser.run({ background: true, signal });
  options.onRun?.(report, undefined);
  const preempted = report.items.filter(
    (item) => item.state === 'interrupted' && item.reason?.includes('foreground work'),
  );
  if (preempted.length > 0) appraiser.retry(preempted.map((item) => item.queueId));
  // A run that did nothing (another process works on this memory, or no tick was left) waits
  // for a change; one a new control cancelled goes round again to apply it.
  return report.items.length > 0 || report.state === 'cancelled';
}

/** Waits until another connection commits (or the signal aborts). */
async function idle(core: AppraiserCore, signal: AbortSignal, pollMs: number): Promise<void> {
  const seen = dataVersion(core);
  while (!signal.aborted && dataVersion(core) === seen) {
    await sleep(pollMs, undefined, { signal }).catch(() => {});
  }
}

/**
 * Serves the memory until `signal` aborts: refused when another live process already serves it.
 * A request left running by a server that died is answered as cancelled when this one starts.
 */
export async function serveLoop(options: ServeLoopOptions): Promise<ServeResult> {
  const { core, signal } = options;
  const lock = serveLockPath(core.directory);
  const taken = takeLock(lock, 'appraiser serve');
  if (!taken.taken) {
    return left(
      refusal('refused', `process ${lockHolder(lock)?.pid ?? '?'} already serves this memory`),
    );
  }
  let runs = 0;
  const counted: ServeLoopOptions = {
    ...options,
    onRun: (report, id) => {
      runs += 1;
      options.onRun?.(report, id);
    },
  };
  try {
    const cancelled: RunReport = { state: 'cancelled', items: [], modelCalls: 0 };
    core.db.prepare(serveSql.abandon).run(JSON.stringify(cancelled), core.now());
    options.onServing?.();
    while (!signal.aborted) {
      if (await answerRequest(counted)) continue;
      if (await backgroundTick(counted)) continue;
      await idle(core, signal, options.pollMs ?? 50);
    }
    return right({ runs });
  } finally {
    releaseLock(lock);
  }
}
