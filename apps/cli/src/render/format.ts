import { stripControl } from '@mecha/appraisal-core';
import type { ReadProblem } from '@mecha/stores';

/** A count, or `unknown` where its source could not be read: absent is never printed as 0. */
export function count(value: number | null): string {
  return value === null ? 'unknown' : String(value);
}

/** `1 session`, `2 sessions`; `unknown sessions` when the count is absent. */
export function plural(value: number | null, one: string, many = `${one}s`): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}

/** A share as a whole percentage, or `—` when there is none. */
export function percent(share: number | null): string {
  return share === null ? '—' : `${Math.round(share * 100)}%`;
}

/** `a · b · c` over the parts that are there. */
export function joined(parts: readonly (string | undefined | false)[]): string {
  return parts
    .filter((part): part is string => typeof part === 'string' && part !== '')
    .join(' · ');
}

/** Counts of a record as `key n` pairs, largest first, zero entries left out. */
export function tallyText(tally: Readonly<Record<string, number>>): string {
  return Object.entries(tally)
    .filter(([, value]) => value > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, value]) => `${key} ${value}`)
    .join(', ');
}

/** Wraps prose to `width` columns under a prefix (`  │ `). */
export function wrapText(text: string, prefix: string, width = 96): string[] {
  const words = text.split(/ +/).filter((word) => word !== '');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && prefix.length + line.length + 1 + word.length > width) {
      lines.push(`${prefix}${line}`);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(`${prefix}${line}`);
  return lines;
}

/**
 * The `not_read_whole` field of a readout's JSON: every source not read whole and why, with
 * control characters stripped (file names and reasons come from the disk).
 */
export function notReadWhole(problems: readonly ReadProblem[]): ReadProblem[] {
  return problems.map((problem) => ({
    source: stripControl(problem.source),
    what: stripControl(problem.what),
  }));
}

/** The section naming every source not read whole, capped at `limit` lines. */
export function problemsSection(problems: readonly ReadProblem[], limit = 12): string[] {
  if (problems.length === 0) return [];
  const lines = [
    '',
    'Not read whole, so the readout is partial (a count it could not make reads unknown):',
  ];
  // File names and reasons come from the disk: a name may hold escape sequences.
  for (const problem of problems.slice(0, limit))
    lines.push(`  ${stripControl(problem.source)}: ${stripControl(problem.what)}`);
  if (problems.length > limit) lines.push(`  … and ${problems.length - limit} more`);
  return lines;
}

/** Renders a record's timestamp for a person. */
export type Clock = (iso: string) => string;

/**
 * Times as the owner reads them: in the home's `[agent] timezone`, to the minute, with the
 * zone's short name (`2026-11-30 03:31 GMT+1`). A timestamp that does not parse is shown as
 * written, never dropped.
 */
export function ownerClock(zone: string): Clock {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
  return (iso) => {
    const time = Date.parse(iso);
    if (Number.isNaN(time)) return iso;
    const part: Record<string, string> = {};
    for (const { type, value } of format.formatToParts(time)) part[type] = value;
    return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute} ${part.timeZoneName}`;
  };
}
