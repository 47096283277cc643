import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { CharterReadingRecord, SkippedLine, SourceRead } from '@mecha/appraisal-core';
import { type CharterSensorFinding, charterSensorFindings } from '@mecha/homeostat';
import * as E from 'fp-ts/lib/Either.js';
import { type LockState, lockState } from './advisory-lock.js';
import { configIssueText } from './config.js';
import { contextOf } from './home-context.js';
import { homeLayout, lockFileOf } from './home-layout.js';
import { readManifest, writeFileAtomically } from './home-manifest.js';
import { underLock } from './jsonl-store.js';
import { knownSessionsFile } from './known-sessions.js';
import type { MechaHome } from './open-home.js';
import type { WriteFailure } from './write-failure.js';

/** One store's state, as `mecha doctor` shows it. */
export type StoreCheck =
  | { readonly file: string; readonly state: 'read'; readonly records: number }
  | {
      readonly file: string;
      readonly state: 'partial';
      readonly records: number;
      readonly skipped: readonly SkippedLine[];
    }
  | { readonly file: string; readonly state: 'unreadable'; readonly reason: string };

/** A lock file present in the home, and who holds it. */
export interface LockCheck {
  readonly file: string;
  readonly holder: LockState;
}

/** How many of the newest runs `checkHome` reads the charter sensors from. */
const sensorRunsRead = 50;

/** Everything `mecha doctor` reports about a home. Nothing here writes. */
export interface HomeCheck {
  readonly path: string;
  /** Whether the folder exists at all; when it does not, nothing else was read. */
  readonly exists: boolean;
  readonly manifest:
    | { readonly state: 'read' | 'absent' }
    | { readonly state: 'unreadable'; readonly reason: string };
  /** Every JSONL store, the session listing and each transcript not read whole. */
  readonly stores: readonly StoreCheck[];
  readonly sessions: StoreCheck;
  readonly transcripts: readonly StoreCheck[];
  readonly config:
    | { readonly state: 'read' | 'default' }
    | { readonly state: 'invalid'; readonly issues: readonly string[] };
  readonly charter:
    | { readonly state: 'read'; readonly lines: number }
    | { readonly state: 'unreadable'; readonly reason: string };
  /** The configured model file and whether it is there; `null` when none is configured. */
  readonly model: { readonly path: string; readonly exists: boolean } | null;
  /**
   * The `[[mcp]] graph` server distillation writes to: the command that starts it or the URL it
   * is reached at; `null` when none is configured.
   */
  readonly graph:
    | { readonly command: string; readonly url?: undefined }
    | { readonly url: string; readonly command?: undefined }
    | null;
  /**
   * Sessions distillation gave up on after a failure that repeated on every try (from the distill
   * ledger), each with why; `null` when the ledger could not be read.
   */
  readonly distillGivenUp:
    | readonly { readonly sessionId: string; readonly reason: string }[]
    | null;
  readonly locks: readonly LockCheck[];
  /**
   * Each sensored charter line as the newest runs (up to 50) read it at
   * their start: its threshold, and whether the sensor is saturated (pinned or never moving).
   */
  readonly charterSensors: readonly CharterSensorFinding[];
  /** Whether anything above needs the owner: a store not read whole, a bad config, a stale lock. */
  readonly healthy: boolean;
}

function checkOf<T>(file: string, read: SourceRead<T>): StoreCheck {
  switch (read.state) {
    case 'read':
      return { file, state: 'read', records: read.records.length };
    case 'partial':
      return { file, state: 'partial', records: read.records.length, skipped: read.skipped };
    default:
      return { file, state: 'unreadable', reason: read.reason };
  }
}

/** The JSONL stores of a home with their readers, in layout order. */
function jsonlStores(home: MechaHome): readonly [string, () => Promise<SourceRead<unknown>>][] {
  return [
    [homeLayout.outbox, home.outbox.read],
    [homeLayout.questions, home.questions.read],
    [homeLayout.requests, home.requests.read],
    [homeLayout.closures, home.closures.read],
    [homeLayout.workflows, home.workflows.read],
    [homeLayout.board, home.board.read],
    [homeLayout.reflections, home.learning.reflections.read],
    [homeLayout.rules, home.learning.rules.read],
    [homeLayout.ruleVerdicts, home.learning.curation.rule.read],
    [homeLayout.reflectionVerdicts, home.learning.curation.reflection.read],
    [homeLayout.candidateVerdicts, home.learning.curation.candidate.read],
    [homeLayout.distilled, home.learning.distilled.read],
    [homeLayout.ownerOutcomes, home.ownerOutcomes.read],
    [homeLayout.textAppraisals, home.appraisals.textAppraisals.read],
    [homeLayout.scores, home.appraisals.scores.read],
    [homeLayout.counterfactuals, home.appraisals.counterfactuals.read],
    [homeLayout.comparisons, home.appraisals.comparisons.read],
    [homeLayout.predictions, home.predictions.read],
    [homeLayout.shells, home.shells.read],
  ];
}

/** Every lock file present under the home (one folder deep), with its holder. */
function lockChecks(path: string): LockCheck[] {
  const found: LockCheck[] = [];
  const look = (folder: string, prefix: string) => {
    let names: string[];
    try {
      names = readdirSync(join(path, folder));
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (!name.endsWith('.lock')) continue;
      const file = `${prefix}${name}`;
      found.push({ file, holder: lockState(join(path, file)) });
    }
  };
  look('.', '');
  for (const entry of readdirSync(path).sort()) {
    try {
      if (statSync(join(path, entry)).isDirectory()) look(entry, `${entry}/`);
    } catch {
      // Vanished while listing: nothing to report.
    }
  }
  return found;
}

/**
 * Reads every part of a home and reports its state: each store (read, partial with each
 * skipped file:line and reason, unreadable with the reason, vanished), the session listing and
 * every transcript not read whole, the config, the charter, the model file, the graph server
 * and the lock files with their holders. Reads only; never throws.
 */
export async function checkHome(home: MechaHome): Promise<HomeCheck> {
  const path = home.path;
  const exists = existsSync(path);
  const manifestRead = readManifest(path);
  const manifest =
    manifestRead.state === 'unreadable'
      ? { state: 'unreadable' as const, reason: manifestRead.reason }
      : { state: manifestRead.state };
  if (!exists) {
    return {
      path,
      exists,
      manifest,
      stores: [],
      sessions: {
        file: `${homeLayout.sessions}/`,
        state: 'unreadable',
        reason: 'the home does not exist',
      },
      transcripts: [],
      config: { state: 'default' },
      charter: { state: 'unreadable', reason: 'the home does not exist' },
      model: null,
      graph: null,
      distillGivenUp: null,
      locks: [],
      charterSensors: [],
      healthy: false,
    };
  }
  const stores: StoreCheck[] = [];
  for (const [file, read] of jsonlStores(home)) stores.push(checkOf(file, await read()));
  const transcripts: StoreCheck[] = [];
  const starts: { at: number; readings: readonly CharterReadingRecord[] }[] = [];
  const listing = await home.sessions.scan({
    population: 'every',
    events: ['run_start', 'run_end'],
    visit: (entry, transcript) => {
      if (transcript.state !== 'read') {
        transcripts.push(checkOf(home.sessions.file(entry.sessionId), transcript));
      }
      if (transcript.state === 'unreadable') return;
      for (const event of transcript.records) {
        if (event.type === 'run_start' && event.conditions?.charter !== undefined) {
          starts.push({ at: Date.parse(event.at), readings: event.conditions.charter });
        }
      }
    },
  });
  const charterSensors = charterSensorFindings(
    starts
      .sort((a, b) => a.at - b.at)
      .slice(-sensorRunsRead)
      .map((start) => start.readings),
  );
  const sessions = checkOf(`${homeLayout.sessions}/`, listing);
  const configRead = home.readConfig();
  const configured = existsSync(join(path, homeLayout.config));
  const config = E.isLeft(configRead)
    ? {
        state: 'invalid' as const,
        issues: configRead.left.map(configIssueText),
      }
    : { state: configured ? ('read' as const) : ('default' as const) };
  const charterRead = home.readCharter();
  const charter =
    charterRead.state === 'read'
      ? { state: 'read' as const, lines: charterRead.charter.length }
      : charterRead;
  let model: HomeCheck['model'] = null;
  let graph: HomeCheck['graph'] = null;
  if (E.isRight(configRead)) {
    const modelPath = configRead.right.model.path;
    if (modelPath !== undefined) {
      const absolute = isAbsolute(modelPath) ? modelPath : join(path, modelPath);
      model = { path: absolute, exists: existsSync(absolute) };
    }
    const server = configRead.right.mcp.find((entry) => entry.name === 'graph');
    if (server?.url !== undefined) graph = { url: server.url };
    else if (server?.command !== undefined) graph = { command: server.command };
  }
  const ledger = await home.learning.distilled.read();
  const distillGivenUp =
    ledger.state === 'unreadable'
      ? null
      : ledger.records
          .filter((record) => record.outcome === 'given_up')
          .map((record) => ({ sessionId: record.session_id, reason: record.reason ?? '' }));
  const locks = lockChecks(path);
  const healthy =
    manifest.state !== 'unreadable' &&
    stores.every((store) => store.state === 'read') &&
    sessions.state === 'read' &&
    transcripts.length === 0 &&
    config.state !== 'invalid' &&
    charter.state === 'read' &&
    (model === null || model.exists) &&
    locks.every((lock) => lock.holder.state !== 'stale' && lock.holder.state !== 'unreadable');
  return {
    path,
    exists,
    manifest,
    stores,
    sessions,
    transcripts,
    config,
    charter,
    model,
    graph,
    distillGivenUp,
    locks,
    charterSensors,
    healthy,
  };
}

/** The reader of one store or transcript of a home, by its file; `undefined` for any other. */
function readerOf(home: MechaHome, file: string): (() => Promise<SourceRead<unknown>>) | undefined {
  const transcript = /^sessions\/(.+)\.jsonl$/.exec(file);
  if (transcript !== null) {
    const sessionId = transcript[1] as string;
    return () => home.sessions.transcript(sessionId);
  }
  return jsonlStores(home).find(([name]) => name === file)?.[1];
}

/** What `repairHome` did to one store: repaired it, or why not. */
export type RepairOutcome =
  | { readonly file: string; readonly state: 'repaired'; readonly repair: StoreRepair }
  | { readonly file: string; readonly state: 'refused'; readonly message: string };

/**
 * Compacts every store and transcript that `check` found partial, one at a time (see
 * `repairStore`), and reports each. Stores read whole, unreadable or vanished are left alone.
 */
export async function repairHome(home: MechaHome, check: HomeCheck): Promise<RepairOutcome[]> {
  const outcomes: RepairOutcome[] = [];
  for (const store of [...check.stores, ...check.transcripts]) {
    if (store.state !== 'partial') continue;
    const done = await repairStore(home, store.file);
    if (E.isLeft(done))
      outcomes.push({ file: store.file, state: 'refused', message: done.left.message });
    else if (done.right !== undefined)
      outcomes.push({ file: store.file, state: 'repaired', repair: done.right });
  }
  return outcomes;
}

/** What repairing one store did: where the original was copied, and what was kept and dropped. */
export interface StoreRepair {
  readonly file: string;
  readonly backup: string;
  readonly kept: number;
  readonly discarded: readonly SkippedLine[];
}

/**
 * Compacts a store read as partial: under the store's lock, copies the file beside itself
 * (`<file>.damaged-<time>`, never overwriting), then rewrites it atomically with every intact
 * line exactly as it was and without the damaged ones. A store read whole is left alone
 * (`undefined`); an unreadable one is refused, since there is nothing to keep.
 */
export async function repairStore(
  home: MechaHome,
  file: string,
): Promise<E.Either<WriteFailure, StoreRepair | undefined>> {
  const read = readerOf(home, file);
  if (read === undefined) {
    return E.left({ kind: 'refused', message: `${file} is not a store of this home` });
  }
  const context = contextOf(home);
  const isTranscript = file.startsWith(`${homeLayout.sessions}/`) && file !== knownSessionsFile;
  const lockFile = isTranscript ? `${file}.lock` : lockFileOf(file);
  return underLock(context, lockFile, async () => {
    const current = await read();
    if (current.state === 'read') return E.right(undefined);
    if (current.state === 'unreadable') {
      return E.left({ kind: 'refused', message: `${file} cannot be repaired: ${current.reason}` });
    }
    const path = join(context.path, file);
    const damaged = new Set(
      current.skipped.filter((line) => line.file === file).map((line) => line.line),
    );
    const stamp = context.clock().toISOString().replace(/[:.]/g, '-');
    const backup = `${file}.damaged-${stamp}`;
    try {
      if (existsSync(join(context.path, backup))) {
        return E.left({
          kind: 'refused',
          message: `${backup} exists already: nothing was changed`,
        });
      }
      const lines = readFileSync(path).toString('utf8').split('\n');
      const kept = lines.filter((line, index) => line !== '' && !damaged.has(index + 1));
      if (kept.length === 0) {
        return E.left({
          kind: 'refused',
          message: `${file} has no intact line to keep: restore it from a backup instead`,
        });
      }
      copyFileSync(path, join(context.path, backup));
      writeFileAtomically(path, dirname(path), `${kept.join('\n')}\n`);
      return E.right({ file, backup, kept: kept.length, discarded: current.skipped });
    } catch (error) {
      return E.left({ kind: 'io', path, message: `${file}: ${String((error as Error).message)}` });
    }
  });
}
