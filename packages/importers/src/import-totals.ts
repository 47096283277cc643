import type { DamagedLine, SkippedFile } from './import-history.js';
import type { SignalCounts } from './session-state.js';

/** What a pass over several files has counted so far; each file adds to it. */
export interface Totals {
  read: number;
  unchanged: number;
  skipped: number;
  created: number;
  continued: number;
  linesRead: number;
  mapped: number;
  ignored: number;
  damagedCount: number;
  events: number;
  signals: SignalCounts;
  damaged: DamagedLine[];
  skippedFiles: SkippedFile[];
  pending: string[];
  /** Sessions this pass created, and from which file (a second copy in the same pass). */
  createdFrom: Map<string, string>;
}

/** Keeps the report's list bounded on a badly damaged history; the count stays exact. */
const maxDamagedListed = 1000;

/** A damaged line of `file`: always counted, listed while the list is short. */
export function countDamage(totals: Totals, file: string, line: number, reason: string): void {
  totals.damagedCount += 1;
  if (totals.damaged.length < maxDamagedListed) totals.damaged.push({ file, line, reason });
}

/** A file left alone, and why: listed and counted as skipped. */
export function skipFile(totals: Totals, file: string, reason: string): void {
  totals.skippedFiles.push({ file, reason });
  totals.skipped += 1;
}

/**
 * Marks the line counts as they stand; the function returned takes back what was counted
 * since. A file left alone after some of its lines were read (a copy of a log already imported)
 * adds none of them to the pass's counts: the report counts the lines of the logs it imported.
 */
export function markLineCounts(totals: Totals): () => void {
  const before = {
    linesRead: totals.linesRead,
    ignored: totals.ignored,
    damagedCount: totals.damagedCount,
    damagedListed: totals.damaged.length,
  };
  return () => {
    totals.linesRead = before.linesRead;
    totals.ignored = before.ignored;
    totals.damagedCount = before.damagedCount;
    totals.damaged.length = before.damagedListed;
  };
}
