import { performance } from 'node:perf_hooks';

/** Timings of one measured piece of work, in milliseconds. */
export interface Measurement {
  readonly name: string;
  readonly samples: readonly number[];
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** The median of a non-empty list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Runs `work` a few times after a warm-up and keeps every sample: the machine is shared and
 * noisy, so results are quoted as medians and as ratios to a baseline measured in the same run.
 */
export async function measure(
  name: string,
  work: () => unknown | Promise<unknown>,
  options: { readonly samples?: number; readonly warmup?: number } = {},
): Promise<Measurement> {
  const { samples = 7, warmup = 1 } = options;
  for (let index = 0; index < warmup; index += 1) await work();
  const times: number[] = [];
  for (let index = 0; index < samples; index += 1) {
    globalThis.gc?.();
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return {
    name,
    samples: times,
    median: median(times),
    min: Math.min(...times),
    max: Math.max(...times),
  };
}

/** A result table a suite returns: a title, column names and rows, plus notes under it. */
export interface ResultTable {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly notes?: readonly string[];
}

/** Renders a table as GitHub markdown. */
export function renderTable(table: ResultTable): string {
  const lines = [
    `### ${table.title}`,
    '',
    `| ${table.columns.join(' | ')} |`,
    `| ${table.columns.map(() => '---').join(' | ')} |`,
    ...table.rows.map((row) => `| ${row.join(' | ')} |`),
  ];
  if (table.notes?.length) lines.push('', ...table.notes);
  return `${lines.join('\n')}\n`;
}
