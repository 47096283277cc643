import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MechaHome } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import {
  type ImportFailure,
  type ImportOptions,
  type ImportReport,
  importHistory,
} from './import-history.js';
import { surveySourceFiles } from './source-files.js';

/** What to watch, how often to look, and when to stop. */
export interface WatchOptions extends Omit<ImportOptions, 'files' | 'turnEnded' | 'onProgress'> {
  /** Stops the watch: the pass under way finishes (its lines and ledger written), then it ends. */
  readonly signal: AbortSignal;
  /** Called with the report of the first pass and of every pass after a log changed. */
  readonly onPass: (report: ImportReport) => void;
  /** How long to wait between looks at the folder; 1,000 ms by default. */
  readonly intervalMs?: number;
  /**
   * Waits between looks instead of the interval (a test's hand-moved clock): resolves when the
   * folder is to be looked at again; rejects or resolves early when `signal` aborts.
   */
  readonly wait?: (signal: AbortSignal) => Promise<void>;
}

/** How a watch ended: stopped by its signal, after this many passes. */
export interface WatchEnd {
  readonly passes: number;
}

/** Every log under the folder with its size: a pass is due when this changes. */
function fingerprint(options: WatchOptions): string {
  const source = resolve(options.source);
  let files: readonly string[];
  try {
    files = surveySourceFiles(options.tool, source).files;
  } catch {
    return 'unlistable';
  }
  return files
    .map((file) => {
      try {
        return `${file}\0${statSync(file).size}`;
      } catch {
        return `${file}\0gone`;
      }
    })
    .join('\n');
}

/**
 * Imports a tool's logs as they are written: one pass now, then another each time a log under
 * the folder grows or a new one appears (looked for every `intervalMs`), each exactly as
 * `importHistory` (under the import lock, from the ledger's offsets), so a watch and any other
 * import share the ledger and never import a line twice, and a watch started again resumes where
 * the last stopped. It ends when `signal` aborts, after the pass under way; a pass that fails
 * (the ledger damaged, the home gone) ends it with that failure.
 */
export async function watchHistory(
  home: MechaHome,
  options: WatchOptions,
): Promise<E.Either<ImportFailure, WatchEnd>> {
  const interval = options.intervalMs ?? 1000;
  const wait = options.wait ?? ((signal: AbortSignal) => sleep(interval, undefined, { signal }));
  let passes = 0;
  let seen: string | undefined;
  while (!options.signal.aborted) {
    const now = fingerprint(options);
    if (now !== seen) {
      seen = now;
      const { signal: _signal, onPass: _onPass, intervalMs: _i, wait: _wait, ...pass } = options;
      const report = await importHistory(home, pass);
      if (E.isLeft(report)) return report;
      passes += 1;
      // A line still being written is left pending: its file grows again when it is whole.
      options.onPass(report.right);
    }
    try {
      await wait(options.signal);
    } catch {
      break;
    }
  }
  return E.right({ passes });
}
