import { type FSWatcher, readdirSync, watch } from 'node:fs';
import { join } from 'node:path';
import { isLivePath, liveFolders, storeOfFile } from './home-files.js';

/** How a watch of the home ends and where it says what it could not watch. */
export interface WatchHomeOptions {
  /** Ends the watch: every watcher closes and the iteration finishes. */
  readonly signal?: AbortSignal;
  /** Told when watching a folder failed (by default, one line on stderr). */
  readonly onError?: (folder: string, error: Error) => void;
}

/** A running watch: iterate it for batches of changed paths; `close` ends it. */
export interface HomeWatch extends AsyncIterable<readonly string[]> {
  close(): void;
}

/**
 * Watches a home for changes to what a live readout takes in (transcripts and stores) and
 * yields them as batches of paths relative to the home, `/`-separated, each batch sorted and
 * without repeats. The watchers are set up before this returns, so a write after the call is
 * seen. One watch per folder (the sessions folder, each store's folder, the home itself for the
 * charter), never one per file: a recursive watch on Linux opens one for every transcript. A
 * store's folder that appears after the start is watched then, and its stores reported.
 * A watch may report a file that did not change; a reader takes a batch as "look again".
 */
export function watchHome(homePath: string, options: WatchHomeOptions = {}): HomeWatch {
  const folders = liveFolders();
  const watchers = new Map<string, FSWatcher>();
  const pending = new Set<string>();
  let wake: (() => void) | undefined;
  let closed = false;
  const say =
    options.onError ??
    ((folder: string, error: Error) => {
      process.stderr.write(`mecha: watching ${folder || 'the home'} failed: ${error.message}\n`);
    });
  const note = (paths: Iterable<string>) => {
    for (const path of paths) pending.add(path);
    wake?.();
  };
  const watchFolder = (folder: string) => {
    if (closed || watchers.has(folder)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(folder === '' ? homePath : join(homePath, folder), (_event, name) => {
        if (name === null) return;
        const path = folder === '' ? name.toString() : `${folder}/${name.toString()}`;
        if (folders.has(path) && !watchers.has(path)) {
          // A store's folder appeared after the start: watch it, and report what it holds.
          watchFolder(path);
          note([...storeOfFile.keys()].filter((file) => file.startsWith(`${path}/`)));
          note(transcriptsIn(homePath, path));
          return;
        }
        if (isLivePath(path)) note([path]);
      });
    } catch {
      return; // Not there yet: the home's own watch sees it appear.
    }
    watcher.on('error', (error) => say(folder, error));
    watchers.set(folder, watcher);
  };
  const close = () => {
    if (closed) return;
    closed = true;
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
    wake?.();
  };
  if (options.signal?.aborted) close();
  options.signal?.addEventListener('abort', close, { once: true });
  for (const folder of folders) watchFolder(folder);

  async function* batches(): AsyncGenerator<readonly string[]> {
    try {
      while (!closed) {
        if (pending.size === 0) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
          continue;
        }
        const batch = [...pending].sort();
        pending.clear();
        yield batch;
      }
    } finally {
      options.signal?.removeEventListener('abort', close);
    }
  }
  return { close, [Symbol.asyncIterator]: batches };
}

/** The transcripts a folder that just appeared already holds (none unless it is the sessions one). */
function transcriptsIn(homePath: string, folder: string): string[] {
  try {
    return readdirSync(join(homePath, folder))
      .map((name) => `${folder}/${name}`)
      .filter((path) => isLivePath(path));
  } catch {
    return []; // Gone again, or not a folder: its own watch (if any) reports what comes.
  }
}
