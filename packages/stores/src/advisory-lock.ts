import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { describeFileError } from './read-jsonl-file.js';
import type { WriteFailure } from './write-failure.js';

/** How long a writer waits for a lock before giving up, by default. */
export const defaultLockTimeoutMs = 30_000;

// A lock file whose content cannot be read yet may be one its creator is still writing; after
// this long it is taken as left behind by a crash.
const unreadableGraceMs = 5_000;

interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
}

type HolderRead =
  | { readonly kind: 'holder'; readonly holder: Holder }
  | { readonly kind: 'gone' }
  | { readonly kind: 'unreadable'; readonly ageMs: number };

const host = hostname();
// Locks this process holds now, so a lock file naming our own pid that is not among them is
// known to be left by an earlier process that had the same pid.
const heldHere = new Set<string>();
// Same-process acquirers queue here first; the file lock then orders processes.
const queues = new Map<string, Promise<void>>();
// The locks the current async call chain holds: taking one of them again would wait on itself.
const heldByCaller = new AsyncLocalStorage<ReadonlySet<string>>();

function readHolder(path: string): HolderRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { kind: 'gone' };
    return { kind: 'unreadable', ageMs: ageOf(path) };
  }
  const [pid, holderHost, token] = text.split('\n');
  const parsed = Number(pid);
  if (!Number.isSafeInteger(parsed) || parsed <= 0 || !holderHost || !token) {
    return { kind: 'unreadable', ageMs: ageOf(path) };
  }
  return { kind: 'holder', holder: { pid: parsed, host: holderHost, token } };
}

function ageOf(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Whether a process is alive: signal 0 tests for it without sending anything. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

function isStale(path: string, read: HolderRead): boolean {
  if (read.kind === 'gone') return false;
  if (read.kind === 'unreadable') return read.ageMs > unreadableGraceMs;
  const { holder } = read;
  // Another machine's process cannot be tested from here: its lock is never broken.
  if (holder.host !== host) return false;
  if (holder.pid === process.pid) return !heldHere.has(path);
  return !isAlive(holder.pid);
}

/** Creates `path` holding `content` only when nothing is there: `false` when it exists. */
export function createExclusive(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone: someone else cleaned it up.
  }
}

/**
 * Removes a stale lock. Breakers take `<lock>.break` first, so between reading the stale
 * holder and unlinking, no other breaker can unlink a fresh lock in its place; a break file
 * whose own holder died is removed the same way a lock is.
 */
function breakStale(path: string, stale: HolderRead): void {
  const breakPath = `${path}.break`;
  if (!createExclusive(breakPath, `${process.pid}\n${host}\nbreak\n`)) {
    if (isStale(breakPath, readHolder(breakPath))) unlinkQuietly(breakPath);
    return;
  }
  try {
    const now = readHolder(path);
    const same =
      (stale.kind === 'holder' &&
        now.kind === 'holder' &&
        now.holder.token === stale.holder.token) ||
      (stale.kind === 'unreadable' && now.kind === 'unreadable');
    if (same && isStale(path, now)) unlinkQuietly(path);
  } finally {
    unlinkQuietly(breakPath);
  }
}

/**
 * Who holds a lock file now, for a person looking at a home: nobody (no file), a live holder,
 * one left behind by a dead process (the next writer breaks it), one held from another machine
 * (never broken), or a file whose content cannot be read.
 */
export type LockState =
  | { readonly state: 'free' }
  | { readonly state: 'held' | 'stale'; readonly pid: number; readonly host: string }
  | { readonly state: 'remote'; readonly pid: number; readonly host: string }
  | { readonly state: 'unreadable' };

/** Reads a lock file's holder and whether it is alive. Never throws, never breaks anything. */
export function lockState(path: string): LockState {
  const read = readHolder(path);
  if (read.kind === 'gone') return { state: 'free' };
  if (read.kind === 'unreadable') return { state: 'unreadable' };
  const { pid, host: holderHost } = read.holder;
  if (holderHost !== host) return { state: 'remote', pid, host: holderHost };
  return { state: isStale(path, read) ? 'stale' : 'held', pid, host: holderHost };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function acquireFile(
  path: string,
  timeoutMs: number,
): Promise<E.Either<WriteFailure, string>> {
  const token = randomBytes(8).toString('hex');
  const content = `${process.pid}\n${host}\n${token}\n`;
  const deadline = Date.now() + timeoutMs;
  let backoff = 1;
  for (;;) {
    try {
      if (createExclusive(path, content)) return E.right(token);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') {
        try {
          mkdirSync(dirname(path), { recursive: true });
          continue;
        } catch (inner) {
          return E.left({ kind: 'io', path, message: `lock ${path}: ${describeFileError(inner)}` });
        }
      }
      return E.left({ kind: 'io', path, message: `lock ${path}: ${describeFileError(error)}` });
    }
    const holder = readHolder(path);
    if (isStale(path, holder)) {
      breakStale(path, holder);
      continue;
    }
    if (Date.now() >= deadline) {
      const who =
        holder.kind === 'holder'
          ? `process ${holder.holder.pid} on ${holder.holder.host}`
          : 'an unknown holder';
      return E.left({
        kind: 'lock_timeout',
        path,
        message: `gave up after ${timeoutMs} ms waiting for ${path}, held by ${who}`,
      });
    }
    await sleep(backoff + Math.random() * backoff);
    backoff = Math.min(backoff * 2, 25);
  }
}

function releaseFile(path: string, token: string): void {
  const now = readHolder(path);
  if (now.kind === 'holder' && now.holder.token === token) unlinkQuietly(path);
}

/**
 * Runs `work` while holding the advisory lock at `path`: an `O_EXCL` lock file holding the
 * pid, host and a token. A lock whose holder died (same host, pid gone) is broken; a live one
 * is waited for up to `timeoutMs`, then the caller gets `lock_timeout` as a value. Acquirers
 * in one process queue in order before contending for the file; taking a lock again inside its
 * own `work` is refused rather than left to wait on itself.
 */
export async function withLock<T>(
  path: string,
  work: () => T | Promise<T>,
  options: { readonly timeoutMs?: number } = {},
): Promise<E.Either<WriteFailure, T>> {
  const outer = heldByCaller.getStore();
  if (outer?.has(path)) {
    return E.left({
      kind: 'refused',
      message: `${path} is already held by this caller: waiting for it here would wait forever`,
    });
  }
  const previous = queues.get(path) ?? Promise.resolve();
  let leave: () => void = () => {};
  const mine = new Promise<void>((resolve) => {
    leave = resolve;
  });
  const tail = previous.then(() => mine);
  queues.set(path, tail);
  await previous;
  try {
    const acquired = await acquireFile(path, options.timeoutMs ?? defaultLockTimeoutMs);
    if (E.isLeft(acquired)) return acquired;
    heldHere.add(path);
    try {
      return E.right(await heldByCaller.run(new Set([...(outer ?? []), path]), work));
    } finally {
      heldHere.delete(path);
      releaseFile(path, acquired.right);
    }
  } finally {
    leave();
    if (queues.get(path) === tail) queues.delete(path);
  }
}
