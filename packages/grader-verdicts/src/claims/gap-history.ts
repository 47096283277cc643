import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { z } from 'zod';
import {
  auditSelfImage,
  type GapReading,
  type GapTrend,
  gapTrend,
  type SelfImageAudit,
  type SkillEvidence,
} from './self-claims.js';

const readingSchema = z.object({ v: z.literal(1), at: z.string().min(1), gap: z.number() });

/** The belief-minus-behaviour history as read: its readings, and what could not be read. */
export interface GapHistory {
  /** False when the file exists but could not be read: the history is unknown, not empty. */
  readonly readable: boolean;
  readonly readings: readonly GapReading[];
  /** Lines that were not a reading (a torn last line, a hand edit). */
  readonly skipped: number;
}

/** Reads a JSONL gap history; a file that is not there yet is an empty history. */
export function readGapHistory(path: string): GapHistory {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return { readable: missing, readings: [], skipped: 0 };
  }
  const readings: GapReading[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = readingSchema.safeParse(JSON.parse(line));
      if (parsed.success) readings.push({ at: parsed.data.at, gap: parsed.data.gap });
      else skipped += 1;
    } catch {
      skipped += 1;
    }
  }
  return { readable: true, readings, skipped };
}

/** Appends one reading as a JSON line, flushed to disk before returning. */
export function recordGap(path: string, reading: GapReading): void {
  const descriptor = openSync(path, 'a');
  try {
    writeSync(descriptor, `${JSON.stringify({ v: 1, at: reading.at, gap: reading.gap })}\n`);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** The self-image audit, with today's gap recorded and the trend of the whole history. */
export interface SelfImageOverTime extends SelfImageAudit {
  readonly history: GapHistory;
  /** Null when the history could not be read: no trend is called from an unknown history. */
  readonly trend: GapTrend | null;
  readonly recorded: boolean;
}

/**
 * Audits the self-image, appends its belief-minus-behaviour gap to the history file (when there
 * is a gap to record and the history is readable), and reads the trend of the whole history.
 */
export function auditSelfImageOverTime(
  evidence: readonly SkillEvidence[],
  historyPath: string,
  at: Date,
  publishedStrengths?: readonly string[],
): SelfImageOverTime {
  const audit = auditSelfImage(evidence, publishedStrengths);
  const before = readGapHistory(historyPath);
  if (!before.readable) return { ...audit, history: before, trend: null, recorded: false };
  const recorded = audit.gap !== null;
  if (audit.gap !== null) recordGap(historyPath, { at: at.toISOString(), gap: audit.gap });
  const history = readGapHistory(historyPath);
  return { ...audit, history, trend: gapTrend(history.readings), recorded };
}
