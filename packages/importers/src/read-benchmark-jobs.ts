import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import type { TranscriptEventInput } from '@mecha/stores';
import { mapMiniSweAgentTrajectory, type TrajectoryReading } from './map-mini-swe-agent.js';
import { SessionBuilder } from './session-builder.js';
import { newSessionState } from './session-state.js';
import { readSweBenchReport, type VerifierOutcome } from './verifier-outcome.js';

/** The benchmark job layouts `readBenchmarkJobs` reads. */
export type BenchmarkFormat = 'swe-bench';

/** One trial's session: its events, or why there is none. */
export type TrialSession =
  | {
      readonly state: 'read';
      readonly sessionId: string;
      readonly file: string;
      readonly events: readonly TranscriptEventInput[];
      readonly reading: Extract<TrajectoryReading, { kind: 'mapped' }>;
    }
  | { readonly state: 'missing' }
  | { readonly state: 'unreadable'; readonly file: string; readonly reason: string };

/** One trial's verifier outcome, kept apart from its session: the record, or why there is none. */
export type TrialOutcome =
  | { readonly state: 'read'; readonly record: VerifierOutcome }
  | { readonly state: 'missing' }
  | { readonly state: 'unreadable'; readonly file: string; readonly reason: string };

/** One trial of a benchmark job: its session and, apart, its outcome. */
export interface BenchmarkTrial {
  readonly trial: string;
  readonly session: TrialSession;
  readonly outcome: TrialOutcome;
}

/** What reading a jobs folder gave: its trials in id order, or why the folder cannot be read. */
export type BenchmarkJobs =
  | { readonly state: 'read'; readonly trials: readonly BenchmarkTrial[] }
  | { readonly state: 'unreadable'; readonly reason: string };

/** Options for `readBenchmarkJobs`. */
export interface ReadJobsOptions {
  readonly format: BenchmarkFormat;
  /** Called after each trial is read: trials done, and the total. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** A file larger than this is reported unreadable rather than held whole. */
const maxFileBytes = 256 * 1024 * 1024;

const trajSuffixes = ['.traj.json', '.traj'];

async function walk(folder: string, found: string[]): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true });
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) await walk(path, found);
    else if (entry.isFile()) found.push(path);
  }
}

type JsonRead =
  | { readonly kind: 'read'; readonly value: unknown }
  | { readonly kind: 'unreadable'; readonly reason: string };

async function readJson(path: string): Promise<JsonRead> {
  try {
    const size = (await stat(path)).size;
    if (size > maxFileBytes)
      return { kind: 'unreadable', reason: `larger than ${maxFileBytes} bytes` };
    return { kind: 'read', value: JSON.parse(await readFile(path, 'utf8')) };
  } catch (error) {
    return {
      kind: 'unreadable',
      reason: error instanceof SyntaxError ? `not JSON: ${error.message}` : String(error),
    };
  }
}

function trialOfTraj(path: string): string | undefined {
  const name = basename(path);
  const suffix = trajSuffixes.find((ending) => name.endsWith(ending));
  return suffix === undefined ? undefined : name.slice(0, -suffix.length);
}

/** A session id for a trial, stable for the trial and the format. */
function sessionIdOf(format: BenchmarkFormat, trial: string): string {
  return `${format}-${createHash('sha256').update(`${format}\n${trial}`).digest('hex').slice(0, 16)}`;
}

async function readSession(
  root: string,
  format: BenchmarkFormat,
  trial: string,
  paths: readonly string[],
): Promise<TrialSession> {
  const [path, ...others] = paths;
  if (path === undefined) return { state: 'missing' };
  const file = relative(root, path);
  if (others.length > 0) {
    return { state: 'unreadable', file, reason: `${paths.length} trajectories for one trial` };
  }
  const json = await readJson(path);
  if (json.kind === 'unreadable') return { state: 'unreadable', file, reason: json.reason };
  const sessionId = sessionIdOf(format, trial);
  const builder = new SessionBuilder(newSessionState(sessionId, 'mini-swe-agent'));
  const reading = mapMiniSweAgentTrajectory(json.value, builder);
  if (reading.kind === 'unreadable') return { state: 'unreadable', file, reason: reading.reason };
  return { state: 'read', sessionId, file, events: builder.drain(), reading };
}

async function readOutcome(
  root: string,
  trial: string,
  paths: readonly string[],
): Promise<TrialOutcome> {
  const [path, ...others] = paths;
  if (path === undefined) return { state: 'missing' };
  const file = relative(root, path);
  if (others.length > 0) {
    return { state: 'unreadable', file, reason: `${paths.length} reports for one trial` };
  }
  const json = await readJson(path);
  if (json.kind === 'unreadable') return { state: 'unreadable', file, reason: json.reason };
  const report = readSweBenchReport(json.value, trial, file);
  return report.kind === 'read'
    ? { state: 'read', record: report.outcome }
    : { state: 'unreadable', file, reason: report.reason };
}

/**
 * Reads a folder of benchmark job artifacts into trials. For `swe-bench`: every
 * `<instance>.traj.json` (or `.traj`) anywhere under the folder is a trial's mini-swe-agent
 * trajectory, and every `report.json` in a folder named after an instance is its SWE-bench
 * evaluation report. A trial with one and not the other is listed with the other `missing`;
 * nothing is dropped. Each session is built from its trajectory alone.
 */
export async function readBenchmarkJobs(
  folder: string,
  options: ReadJobsOptions,
): Promise<BenchmarkJobs> {
  const files: string[] = [];
  try {
    await walk(folder, files);
  } catch (error) {
    return { state: 'unreadable', reason: String(error) };
  }
  const trajs = new Map<string, string[]>();
  const reports = new Map<string, string[]>();
  const add = (map: Map<string, string[]>, key: string, path: string): void => {
    map.set(key, [...(map.get(key) ?? []), path]);
  };
  for (const path of files.sort()) {
    const trial = trialOfTraj(path);
    if (trial !== undefined) add(trajs, trial, path);
    else if (basename(path) === 'report.json') add(reports, basename(dirname(path)), path);
  }
  const ids = [...new Set([...trajs.keys(), ...reports.keys()])].sort();
  const trials: BenchmarkTrial[] = [];
  for (const trial of ids) {
    trials.push({
      trial,
      session: await readSession(folder, options.format, trial, trajs.get(trial) ?? []),
      outcome: await readOutcome(folder, trial, reports.get(trial) ?? []),
    });
    options.onProgress?.(trials.length, ids.length);
  }
  return { state: 'read', trials };
}
