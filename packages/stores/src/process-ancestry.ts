import { readFileSync } from 'node:fs';

/** A live process as the kernel names it: its id and its start time (clock ticks since boot). */
export interface ProcessIdentity {
  readonly pid: number;
  /** Field 22 of `/proc/<pid>/stat`; a reused pid has a different one. */
  readonly start: string;
}

/** A process's parent id and start time from `/proc/<pid>/stat`, or undefined (gone, no `/proc`). */
function stat(pid: number): { readonly parent: number; readonly start: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const parent = Number(fields[1]);
  const start = fields[19];
  if (!Number.isInteger(parent) || start === undefined || !/^\d+$/.test(start)) return undefined;
  return { parent, start };
}

/** The start time of a live process, or undefined when it is gone or there is no `/proc`. */
export function processStart(pid: number): string | undefined {
  return stat(pid)?.start;
}

/**
 * The process and its ancestors, nearest first, up to the first process with no parent — read
 * from `/proc`, which a command cannot rewrite. Undefined where there is no `/proc` (not Linux)
 * or the process itself cannot be read.
 */
export function processAncestry(pid: number = process.pid): readonly ProcessIdentity[] | undefined {
  const chain: ProcessIdentity[] = [];
  let at = pid;
  for (let depth = 0; depth < 256 && at > 0; depth += 1) {
    const found = stat(at);
    if (found === undefined) return chain.length === 0 ? undefined : chain;
    chain.push({ pid: at, start: found.start });
    if (found.parent === at) break;
    at = found.parent;
  }
  return chain;
}
