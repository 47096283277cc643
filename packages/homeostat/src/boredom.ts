import type { TranscriptEvent } from '@mecha/appraisal-core';

/**
 * The rungs of boredom: a notice fires the first time, in a run, that one target has given the
 * same result this many times in a row — 3, then 6, then 12 — and never again on that rung.
 */
export const boredomRungs = [3, 6, 12] as const;

/**
 * A boredom notice: the condition (which target kept giving the same bytes, how many times in a
 * row, through which tools) and what is still reachable. It changes nothing; the approach stays
 * the model's.
 */
export interface BoredomNotice {
  /** 1, 2 or 3: which of `boredomRungs` was reached. */
  readonly rung: number;
  /** How many results in a row were the same. */
  readonly repeats: number;
  /** What the calls targeted (a path, a URL); absent when they named none and were keyed on their arguments. */
  readonly target?: string;
  /** The tools that produced those results, in first-use order. */
  readonly tools: readonly string[];
  readonly turn: number;
  readonly callId: string;
  /** Tools the run has that have not touched this target; absent when the run's tools were not recorded. */
  readonly untriedTools?: readonly string[];
  /** The notice in words, for the harness to put in front of the model. */
  readonly text: string;
}

/** A detector fed transcript events one at a time. */
export interface BoredomDetector {
  /** Feeds one event; returns the notice it triggered, if any (at most one). */
  observe(event: TranscriptEvent): BoredomNotice | undefined;
}

interface Streak {
  digest: string | undefined;
  repeats: number;
  tools: string[];
}

/** Strips what cannot be printed inside backticks, and shortens a very long target. */
function printable(target: string): string {
  const clean = target.replace(/[\p{Cc}\p{Cf}`]/gu, '?');
  return [...clean].length > 200 ? `${[...clean].slice(0, 199).join('')}…` : clean;
}

function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function noticeText(notice: Omit<BoredomNotice, 'text'>): string {
  const via = list(notice.tools.map((tool) => `\`${printable(tool)}\``));
  const target = notice.target === undefined ? 'this call' : `\`${printable(notice.target)}\``;
  const source =
    notice.target === undefined
      ? `the same call of ${via} with the same arguments`
      : `${target} (through ${via})`;
  const reachable =
    notice.untriedTools === undefined
      ? 'Which other tools this run has was not recorded.'
      : notice.untriedTools.length === 0
        ? `Every tool this run has has already been used on ${target}.`
        : `Tools this run has that have not touched ${target}: ${list(notice.untriedTools.map((tool) => `\`${printable(tool)}\``))}.`;
  return [
    `Boredom, rung ${notice.rung} of ${boredomRungs.length}, from the harness:`,
    `the last ${notice.repeats} results from ${source} were the same bytes,`,
    'so repeating that call has taught this run nothing since the first.',
    reachable,
    'This notice changes nothing; what to do next stays yours.',
  ].join(' ');
}

/**
 * A boredom detector for one session's events. It keys each result on the call's target (or,
 * without one, the tool and its arguments) and the result's digest, and counts how many results
 * in a row from one target were identical. A changing result (polling) restarts the count; a
 * result with no digest breaks it; a denied call is not a result. Each rung fires once per run.
 */
export function boredomDetector(): BoredomDetector {
  let streaks = new Map<string, Streak>();
  let calls = new Map<string, { tool: string; key: string; target?: string }>();
  let touched = new Map<string, Set<string>>();
  let tools: readonly string[] | undefined;
  let fired = 0;

  return {
    observe(event) {
      if (event.type === 'run_start') {
        streaks = new Map();
        calls = new Map();
        touched = new Map();
        tools = event.tools;
        fired = 0;
        return undefined;
      }
      if (event.type === 'tool_call') {
        const key =
          event.target !== undefined
            ? `target\u0000${event.target}`
            : event.args_digest !== undefined
              ? `call\u0000${event.tool}\u0000${event.args_digest}`
              : undefined;
        if (key === undefined) return undefined;
        calls.set(
          event.call_id,
          event.target === undefined
            ? { tool: event.tool, key }
            : { tool: event.tool, key, target: event.target },
        );
        touched.set(key, (touched.get(key) ?? new Set()).add(event.tool));
        return undefined;
      }
      if (event.type !== 'tool_result') return undefined;
      const call = calls.get(event.call_id);
      if (call === undefined || event.status === 'denied') return undefined;
      calls.delete(event.call_id);
      const digest =
        event.result_digest === undefined
          ? undefined
          : `${event.status}\u0000${event.result_digest}`;
      const streak = streaks.get(call.key);
      if (digest === undefined) {
        streaks.set(call.key, { digest: undefined, repeats: 0, tools: [] });
        return undefined;
      }
      const current: Streak =
        streak !== undefined && streak.digest === digest
          ? { ...streak, repeats: streak.repeats + 1 }
          : { digest, repeats: 1, tools: [] };
      if (!current.tools.includes(call.tool)) current.tools = [...current.tools, call.tool];
      streaks.set(call.key, current);
      const next = boredomRungs[fired];
      if (next === undefined || current.repeats < next) return undefined;
      fired += 1;
      const used = touched.get(call.key) ?? new Set<string>();
      const base = {
        rung: fired,
        repeats: current.repeats,
        ...(call.target === undefined ? {} : { target: call.target }),
        tools: current.tools,
        turn: event.turn,
        callId: event.call_id,
        ...(tools === undefined ? {} : { untriedTools: tools.filter((tool) => !used.has(tool)) }),
      };
      return { ...base, text: noticeText(base) };
    },
  };
}

/** Every boredom notice a transcript would have produced, in order — for readers such as `sessions health`. */
export function detectBoredom(events: readonly TranscriptEvent[]): BoredomNotice[] {
  const detector = boredomDetector();
  const notices: BoredomNotice[] = [];
  for (const event of events) {
    const notice = detector.observe(event);
    if (notice !== undefined) notices.push(notice);
  }
  return notices;
}
