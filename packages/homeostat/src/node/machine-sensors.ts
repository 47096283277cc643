import { readFile } from 'node:fs/promises';
import { loadavg, platform } from 'node:os';
import { couldNotRead, type Reading, readValue } from '../reading.js';
import type { LiveSensors } from '../run-context.js';

/** The one-minute load average from the text of `/proc/loadavg`. */
export function parseLoadAverage(text: string): Reading<number> {
  const first = text.trim().split(/\s+/)[0] ?? '';
  const value = /^\d+(\.\d+)?$/.test(first) ? Number(first) : Number.NaN;
  return Number.isFinite(value)
    ? readValue(value)
    : couldNotRead('/proc/loadavg does not start with a load average');
}

/** `MemAvailable`, in kB, from the text of `/proc/meminfo`; a kernel without the line is unread. */
export function parseMemAvailable(text: string): Reading<number> {
  const match = /^MemAvailable:\s+(\d+)\s+kB\s*$/m.exec(text);
  const value = match?.[1] === undefined ? Number.NaN : Number(match[1]);
  return Number.isSafeInteger(value)
    ? readValue(value)
    : couldNotRead('/proc/meminfo has no MemAvailable line');
}

async function readText(path: string): Promise<Reading<string>> {
  try {
    return readValue(await readFile(path, 'utf8'));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return couldNotRead(`${path} could not be read${typeof code === 'string' ? ` (${code})` : ''}`);
  }
}

/** Reads the one-minute load average from a `/proc/loadavg` file. */
export async function readLoadAverage(path = '/proc/loadavg'): Promise<Reading<number>> {
  const text = await readText(path);
  return text.state === 'read' ? parseLoadAverage(text.value) : text;
}

/** Reads `MemAvailable` (kB) from a `/proc/meminfo` file. */
export async function readMemAvailable(path = '/proc/meminfo'): Promise<Reading<number>> {
  const text = await readText(path);
  return text.state === 'read' ? parseMemAvailable(text.value) : text;
}

/** Where the machine sensors read from; the defaults are the real files and platform. */
export interface MachineSensorOptions {
  readonly loadavgPath?: string;
  readonly meminfoPath?: string;
  /** `process.platform` by default; only used to decide whether `os.loadavg()` may stand in. */
  readonly platform?: string;
}

/**
 * The machine's live sensors for a `RunContext`: the one-minute load average and MemAvailable.
 * Where `/proc/loadavg` is missing, `os.loadavg()` stands in — except on Windows, where it
 * always reports zeros, so the load is unread there. Memory has no stand-in: free memory is not
 * available memory. A sensor that cannot be read answers with its reason, never a zero.
 */
export function machineSensors(
  options: MachineSensorOptions = {},
): Required<Pick<LiveSensors, 'loadAverage1m' | 'memAvailableKb'>> {
  const os = options.platform ?? platform();
  return {
    async loadAverage1m() {
      const fromProc = await readLoadAverage(options.loadavgPath);
      if (fromProc.state === 'read') return fromProc;
      if (os === 'win32') {
        return couldNotRead(`${fromProc.reason}; Windows reports no load average`);
      }
      const [oneMinute] = loadavg();
      return oneMinute === undefined ? fromProc : readValue(oneMinute);
    },
    memAvailableKb: () => readMemAvailable(options.meminfoPath),
  };
}
