import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

/** Who holds a pid lock file: its process id and what it wrote beside it. */
export interface LockHolder {
  readonly pid: number;
  readonly note: string;
}

/** Whether process `pid` is alive on this machine (a signal-0 probe). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The live holder of the lock file at `path`, or undefined when there is none: no file, an
 * unreadable one, or one whose process has died (a SIGKILL leaves its file behind).
 */
export function lockHolder(path: string): LockHolder | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const [first = '', ...rest] = text.split('\n');
  const pid = Number(first);
  return processAlive(pid) ? { pid, note: rest.join('\n').trim() } : undefined;
}

/**
 * Takes the lock file at `path` for this process (created exclusively, holding the pid and
 * `note`); a file left by a dead process is taken over. Answers the live holder when someone
 * else (or this process, through another handle) has it.
 */
export function takeLock(
  path: string,
  note: string,
  /** The file's permission bits (default 0o644 less the umask); 0o600 keeps a secret note private. */
  mode?: number,
): { readonly taken: true } | { readonly taken: false; readonly holder: LockHolder } {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(path, 'wx', mode);
      try {
        writeSync(fd, `${process.pid}\n${note}\n`);
      } finally {
        closeSync(fd);
      }
      return { taken: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(path);
      if (holder) return { taken: false, holder };
      // Left by a process that died: remove it and try again.
      rmSync(path, { force: true });
    }
  }
  const holder = lockHolder(path);
  return holder ? { taken: false, holder } : { taken: false, holder: { pid: 0, note: 'unknown' } };
}

/** Releases a lock this process holds (a file of another process is left alone). */
export function releaseLock(path: string): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return;
  }
  if (Number(text.split('\n')[0]) === process.pid) rmSync(path, { force: true });
}
