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
// the background flag and the policy allow it. It also ticks the other memories it is given
// (other homes that use the same model), in turn with its own, each under that memory's own
// flags, policy and limits. Its model calls go through the device scheduler it is given, so
// foreground work of another process (a distill) pre-empts them.

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

/** One open memory the server works on: its appraiser and core. */
export interface ServedMemory {
  readonly appraiser: Appraiser;
  readonly core: AppraiserCore;
}

/** What serving needs: the open appraiser, its core, the device and when to stop. */
export interface ServeLoopOptions extends ServeControl, ServedMemory {
  /** Opens another memory (with the same device) for its background ticks. */
  readonly open: (directory: string) => ServedMemory;
}

/** When serving stops, and what it reports as it goes. */
export interface ServeControl {
  /** Ends serving at the next boundary; a run in progress is cancelled (recorded interrupted). */
  readonly signal: AbortSignal;
  /** How often an idle server looks at the store for new work (default 50 ms): waiting, never a deadline. */
  readonly pollMs?: number;
  /** Called once serving has begun (the serve lock is held). */
  readonly onServing?: () => void;
  /**
   * Called after every run the server makes, with the request it answered, if any, and the
   * folder of the memory it ran on (its own, or one of `others`).
   */
  readonly onRun?: (report: RunReport, requestId: number | undefined, directory: string) => void;
  /**
   * Other memories (their folders) whose background work this server does too, in turn with its
   * own: each ticked only while its own background flag is on, its policy is `run` and it is not
   * imported, within its own limits. Read again at every round and while idle, so a memory can
   * join or leave while serving. Only background ticks: run requests are answered for the
   * server's own memory alone.
   */
  readonly others?: () => Promise<readonly string[]>;
  /** Called once when another memory cannot be opened (it is then left alone while serving). */
  readonly onSkip?: (directory: string, reason: string) => void;
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
  options.onRun?.(report, request.id, core.directory);
  return true;
}

/**
 * One background tick: a background run when the flags, the policy and pending work allow it.
 * Work pre-empted by foreground work is queued again, so the next tick resumes it. False when
 * there was nothing to do.
 */
async function backgroundTick(memory: ServedMemory, options: ServeControl): Promise<boolean> {
  const { core, appraiser } = memory;
  const { signal } = options;
  appraiser.applyPending();
  const status = appraiser.status();
  if (!flagSet(core.settings.flags()).background || status.policy !== 'run') return false;
  if (status.imported || status.queue.pending === 0) return false;
  const report = await appraiser.run({ background: true, signal });
  options.onRun?.(report, undefined, core.directory);
  const preempted = report.items.filter(
    (item) => item.state === 'interrupted' && item.reason?.includes('foreground work'),
  );
  if (preempted.length > 0) appraiser.retry(preempted.map((item) => item.queueId));
  // A run that did nothing (another process works on this memory, or no tick was left) waits
  // for a change; one a new control cancelled goes round again to apply it.
  return report.items.length > 0 || report.state === 'cancelled';
}

/**
 * Waits until another connection has committed to one of the memories since `seen` (their data
 * versions, read before the round looked at them), the list of other memories changes, or the
 * signal aborts.
 */
async function idle(
  memories: readonly ServedMemory[],
  seen: readonly number[],
  changed: () => Promise<boolean>,
  signal: AbortSignal,
  pollMs: number,
): Promise<void> {
  const moved = () => memories.some((memory, i) => dataVersion(memory.core) !== seen[i]);
  while (!signal.aborted && !moved() && !(await changed())) {
    await sleep(pollMs, undefined, { signal }).catch(() => {});
  }
}

/**
 * The other memories a server ticks, opened once each and kept open while they stay listed (a
 * memory dropped from the list is closed; one that cannot be opened is reported once and left
 * alone).
 */
function otherMemories(options: ServeLoopOptions) {
  const open = new Map<string, ServedMemory>();
  const failed = new Set<string>();
  let listed: readonly string[] = [];
  const wanted = async () =>
    (await (options.others?.() ?? Promise.resolve([]))).filter(
      (directory) => directory !== options.core.directory && !failed.has(directory),
    );
  return {
    /** The memories listed now, opening new ones and closing dropped ones. */
    async current(): Promise<readonly ServedMemory[]> {
      listed = await wanted();
      for (const [directory, memory] of open) {
        if (!listed.includes(directory)) {
          memory.appraiser.close();
          open.delete(directory);
        }
      }
      const memories: ServedMemory[] = [];
      for (const directory of listed) {
        let memory = open.get(directory);
        if (!memory) {
          try {
            memory = options.open(directory);
          } catch (error) {
            failed.add(directory);
            options.onSkip?.(directory, (error as Error).message);
            continue;
          }
          open.set(directory, memory);
        }
        memories.push(memory);
      }
      return memories;
    },
    /** Whether the list differs from the last one `current` opened. */
    async changed(): Promise<boolean> {
      const now = await wanted();
      return now.length !== listed.length || now.some((directory, i) => directory !== listed[i]);
    },
    close(): void {
      for (const memory of open.values()) memory.appraiser.close();
      open.clear();
    },
  };
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
    onRun: (report, id, directory) => {
      runs += 1;
      options.onRun?.(report, id, directory);
    },
  };
  const others = otherMemories(options);
  // The memory whose tick comes first in the next round: each round gives one memory with work
  // one background run, then answers requests again, so every memory gets its turn.
  let next = 0;
  try {
    const cancelled: RunReport = { state: 'cancelled', items: [], modelCalls: 0 };
    core.db.prepare(serveSql.abandon).run(JSON.stringify(cancelled), core.now());
    options.onServing?.();
    while (!signal.aborted) {
      const memories: readonly ServedMemory[] = [options, ...(await others.current())];
      // Read before the round looks at anything: a control or request committed while the round
      // runs (say, between a tick's look at the flags and the wait) then wakes the wait at once.
      const seen = memories.map((memory) => dataVersion(memory.core));
      if (await answerRequest(counted)) continue;
      let worked = false;
      for (let i = 0; i < memories.length && !signal.aborted && !worked; i += 1) {
        const at = (next + i) % memories.length;
        if (await backgroundTick(memories[at] as ServedMemory, counted)) {
          worked = true;
          next = at + 1;
        }
      }
      if (!worked) await idle(memories, seen, () => others.changed(), signal, options.pollMs ?? 50);
    }
    return right({ runs });
  } finally {
    others.close();
    releaseLock(lock);
  }
}
