import { sumValence, type ValenceSums } from '@mecha/appraisal-core';

/** One session as the corpus charts count it. */
export interface CorpusSession {
  /** When it began (ISO 8601, UTC): the day it is counted on. */
  readonly startedAt: string;
  /** Its valence, or null when it could not be read. */
  readonly valence: ValenceSums | null;
  /** The label word it earned, or null for none (neutral, silent or unreadable). */
  readonly label: string | null;
}

/** One bar of the charts: a day (or a week, for long windows) of sessions. */
export interface CorpusBucket {
  /** Its first day, `YYYY-MM-DD` (UTC). */
  readonly day: string;
  /** Sessions begun in it. */
  readonly sessions: number;
  /** Of those, the ones that could not be read. */
  readonly unreadable: number;
  /**
   * Positive and negative valence summed apart over its readable sessions; null when sessions
   * began in it but none could be read (unknown, never 0). A bucket with no session is 0.
   */
  readonly valence: { readonly positive: number; readonly negative: number } | null;
  /** Readable sessions per label word. */
  readonly labels: Readonly<Record<string, number>>;
  /** It holds today, which is not over: its counts are so far. */
  readonly partial: boolean;
}

/** The charts' buckets over a window, and how many days each bucket is. */
export interface CorpusBuckets {
  readonly width: 1 | 7;
  readonly buckets: readonly CorpusBucket[];
}

/** The most daily bars a chart draws; a longer window is drawn in weeks. */
export const maxDailyBuckets = 62;

const day = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOfDay = (ms: number) => Math.floor(ms / day) * day;

/**
 * Buckets the sessions by the UTC day they began, from the window's first day (`now` less
 * `days`, or the first session's day without a window) to today, with no day missing: a day
 * with no session is 0, a day whose sessions could not be read is unknown. More than
 * {@link maxDailyBuckets} days are bucketed in weeks. Today's bucket is partial. A session
 * outside the days (a clock ahead or behind) is counted in the nearest bucket, never dropped.
 */
export function corpusBuckets(
  sessions: readonly CorpusSession[],
  window: { readonly now: Date; readonly days?: number | undefined },
): CorpusBuckets {
  const today = startOfDay(window.now.getTime());
  const times = sessions.map((session) => Date.parse(session.startedAt));
  const first =
    window.days !== undefined
      ? startOfDay(window.now.getTime() - window.days * day)
      : times.length === 0
        ? undefined
        : startOfDay(Math.min(today, ...times.filter((time) => !Number.isNaN(time))));
  // No session at all: nothing is drawn (the page says so), not a window of zeros.
  if (first === undefined || sessions.length === 0) return { width: 1, buckets: [] };
  const span = (today - first) / day + 1;
  const width = span > maxDailyBuckets ? 7 : 1;
  const count = Math.ceil(span / width);
  const tallies = Array.from({ length: count }, () => ({
    sessions: 0,
    unreadable: 0,
    valences: [] as ValenceSums[],
    labels: {} as Record<string, number>,
  }));
  sessions.forEach((session, index) => {
    const time = times[index] as number;
    const offset = Number.isNaN(time) ? count - 1 : Math.floor((startOfDay(time) - first) / day);
    const at = Math.min(count - 1, Math.max(0, Math.floor(offset / width)));
    const tally = tallies[at] as (typeof tallies)[number];
    tally.sessions += 1;
    if (session.valence === null) {
      tally.unreadable += 1;
      return;
    }
    tally.valences.push(session.valence);
    if (session.label !== null)
      tally.labels[session.label] = (tally.labels[session.label] ?? 0) + 1;
  });
  return {
    width,
    buckets: tallies.map((tally, index) => {
      const start = first + index * width * day;
      const { positive, negative } = sumValence(tally.valences);
      return {
        day: dayOf(start),
        sessions: tally.sessions,
        unreadable: tally.unreadable,
        valence:
          tally.sessions > 0 && tally.unreadable === tally.sessions ? null : { positive, negative },
        labels: tally.labels,
        partial: index === count - 1,
      };
    }),
  };
}
