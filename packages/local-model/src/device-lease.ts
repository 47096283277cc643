import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DevicePriority } from './device-scheduler.js';
import { lockHolder, processAlive, releaseLock, takeLock } from './pid-lock.js';

/** Who holds the device now. */
export interface DeviceHolder {
  readonly pid: number;
  readonly priority: DevicePriority;
}

/**
 * The device as one lease per machine, shared by every mecha process through a folder of lock
 * files: `holder` names the process using the device (and at what priority); each process with
 * foreground work waiting or running leaves a `foreground.<pid>` marker. Background work takes
 * the device only when no other process wants it for the foreground, and yields it (its caller
 * cancels at the next token) as soon as one does. A process that dies holding the device (a
 * SIGKILL) leaves files whose pid is dead: they are ignored and taken over.
 */
export interface DeviceLease {
  readonly directory: string;
  /**
   * Waits for the device at `priority` and takes it, answering the function that gives it back;
   * undefined when `signal` aborted first. A foreground request is announced at once, so a
   * background holder in another process yields.
   */
  acquire(priority: DevicePriority, signal?: AbortSignal): Promise<(() => void) | undefined>;
  /** Whether another live process wants the device for foreground work (one folder listing). */
  foregroundWanted(): boolean;
  /** The live holder, if any. */
  holder(): DeviceHolder | undefined;
}

/** Where the lease lives unless told: `MECHA_DEVICE_DIR`, else `$XDG_RUNTIME_DIR/mecha`, else the home's `device/`. */
export function deviceLeaseDirectory(
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  if (env.MECHA_DEVICE_DIR) return env.MECHA_DEVICE_DIR;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'mecha');
  return join(home, 'device');
}

const foregroundPrefix = 'foreground.';

/** Opens (creating the folder when missing) the machine's device lease. */
export function openDeviceLease(options: {
  readonly directory: string;
  /** How often a waiting process looks again (default 10 ms): waiting, never a deadline. */
  readonly pollMs?: number;
}): DeviceLease {
  const { directory } = options;
  const pollMs = options.pollMs ?? 10;
  mkdirSync(directory, { recursive: true });
  const holderPath = join(directory, 'holder');
  const ownMarker = join(directory, `${foregroundPrefix}${process.pid}`);
  let foregroundRequests = 0;

  function foregroundWanted(): boolean {
    // One small folder listing per look (microseconds against a token's milliseconds). Not
    // cached on the folder's change time: that clock is coarse enough to hide a new marker.
    return readdirSync(directory).some((name) => {
      if (!name.startsWith(foregroundPrefix)) return false;
      const pid = Number(name.slice(foregroundPrefix.length));
      if (pid === process.pid) return false;
      if (processAlive(pid)) return true;
      // Left by a process that died: it wants nothing any more.
      rmSync(join(directory, name), { force: true });
      return false;
    });
  }

  function holder(): DeviceHolder | undefined {
    const found = lockHolder(holderPath);
    return found
      ? { pid: found.pid, priority: found.note === 'foreground' ? 'foreground' : 'background' }
      : undefined;
  }

  function announce(on: boolean): void {
    foregroundRequests += on ? 1 : -1;
    if (on && foregroundRequests === 1) writeFileSync(ownMarker, '');
    if (!on && foregroundRequests === 0) rmSync(ownMarker, { force: true });
  }

  async function acquire(
    priority: DevicePriority,
    signal?: AbortSignal,
  ): Promise<(() => void) | undefined> {
    if (priority === 'foreground') announce(true);
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      releaseLock(holderPath);
      if (priority === 'foreground') announce(false);
    };
    while (!signal?.aborted) {
      const mayTry = priority === 'foreground' || !foregroundWanted();
      if (mayTry && takeLock(holderPath, priority).taken) {
        // A foreground marker may have appeared between the look and the take: yield at once.
        if (priority === 'background' && foregroundWanted()) releaseLock(holderPath);
        else return release;
      }
      await sleep(pollMs);
    }
    if (priority === 'foreground') announce(false);
    return undefined;
  }

  return { directory, acquire, foregroundWanted, holder };
}
