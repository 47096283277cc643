import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AppraisalPorts,
  appraiseCorpus,
  appraisedEventTypes,
  type CorpusAppraisal,
  indexSessionStores,
  type PopulationOptions,
  projectTranscript,
  type SessionListing,
  type SessionStoreIndex,
  type SourceRead,
  type TranscriptEvent,
  wantedBy,
} from '@mecha/appraisal-core';
import type { CharterLine } from '@mecha/charter';
import type { MechaHome } from '../home-context.js';
import { homePorts } from '../home-ports.js';
import { type ReadProblem, withReadLog } from '../readouts/read-log.js';
import {
  changedStamps,
  type FileStamps,
  type LiveStoreKey,
  liveFileStamps,
  sessionOfPath,
  sessionPath,
  storeOfFile,
  storesTouch,
} from './home-files.js';
import { memoryPorts } from './memory-ports.js';
import {
  deriveRunRow,
  listingFrom,
  newestFirst,
  type RowExtras,
  type RunRow,
  rowExtras,
} from './run-row.js';
import { watchHome } from './watch-home.js';

/** The corpus readout and what it could not read whole (`not_read_whole` of the CLI's JSON). */
export interface CorpusRead {
  readonly corpus: CorpusAppraisal;
  readonly notReadWhole: readonly ReadProblem[];
}

/** What one refresh changed: the files taken in, and the sessions whose row changed. */
export interface ReadoutChange {
  readonly version: number;
  /** Sessions that finished a run in this change and have something signed to show. */
  readonly finished: readonly string[];
  /** Every session whose row changed. */
  readonly changed: readonly string[];
  /** The home's files (relative paths) this change took in. */
  readonly files: readonly string[];
}

interface SessionEntry {
  listing: SessionListing;
  /** The transcript cut down to the reading's events (and its last event). */
  transcript: SourceRead<TranscriptEvent>;
  row: RunRow;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A home's readout kept in memory, for live surfaces (the web board, Slack): derived once at
 * `start` from the records, then re-derived only for the sessions whose files changed (a
 * transcript appended to, or a store that holds their evidence). Changes come in three ways,
 * all to the same `changed`: told (`changed(paths)`, after an act of the surface's own), found
 * (`refresh()`, one `stat` per file against the last look) or watched (`follow`/`watch`).
 * Nothing is written anywhere; a restart derives again. Its `ports` serve the core's readouts
 * (appraiseCorpus, appraiseSession, successes) from memory. A transcript that cannot be read is
 * a row in state `unreadable` with its reason and no counts, never a row of zeros.
 */
export class HomeReadout {
  readonly home: MechaHome;
  private readonly base: AppraisalPorts;
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly stores = new Map<LiveStoreKey, Promise<SourceRead<unknown>>>();
  private listingState: SourceRead<SessionListing> = { state: 'read', records: [] };
  private index: SessionStoreIndex | undefined;
  private charter: SourceRead<CharterLine> = { state: 'read', records: [] };
  private stamps: FileStamps = new Map();
  private sorted: RunRow[] | undefined;
  private corpusCache = new Map<string, Promise<CorpusRead>>();
  private populations = new Map<string, RunRow[]>();
  private listed: { version: number; read: SourceRead<SessionListing> } | undefined;
  private listeners = new Set<(change: ReadoutChange) => void>();
  private pending = new Set<string>();
  private flushing: Promise<void> = Promise.resolve();
  private scheduled = false;
  private following: AbortController | undefined;
  /** Bumped on every change; a page can say which version it shows. */
  version = 0;
  /** The session of the latest reading (the last run finished with something signed). */
  latest: string | undefined;

  constructor(home: MechaHome) {
    this.home = home;
    this.base = homePorts(home);
  }

  /** Derives everything once: every transcript read in one pass, every store once. */
  async start(): Promise<void> {
    // Looked at before reading: a write in between shows as a change on the next refresh.
    this.stamps = (await liveFileStamps(this.home.path)).stamps;
    const entries: { listing: SessionListing; transcript: SourceRead<TranscriptEvent> }[] = [];
    const extras = new Map<string, RowExtras>();
    const listing = await this.base.sessions.scan({
      population: 'every',
      visit: (member, transcript) => {
        extras.set(member.sessionId, rowExtras(transcript));
        entries.push({
          listing: member,
          transcript: projectTranscript(transcript, appraisedEventTypes),
        });
      },
    });
    this.listingState = listing;
    await this.reindex();
    this.sessions.clear();
    for (const { listing: member, transcript } of entries) {
      const extra = extras.get(member.sessionId) ?? { lastAnswer: undefined, thirdParty: false };
      this.sessions.set(member.sessionId, {
        listing: member,
        transcript,
        row: this.derive(member, transcript, extra),
      });
    }
    this.sorted = undefined;
    const newest = this.rows().find((row) => row.chip !== undefined);
    this.latest = newest?.sessionId;
    this.version += 1;
  }

  /** How the session store was listed at start: read whole, partial (names skipped) or not at all. */
  listing(): SourceRead<SessionListing>['state'] | { readonly unreadable: string } {
    return this.listingState.state === 'unreadable'
      ? { unreadable: this.listingState.reason }
      : this.listingState.state;
  }

  /** Every session's row, newest first. */
  rows(): readonly RunRow[] {
    if (this.sorted === undefined) {
      this.sorted = [...this.sessions.values()].map((entry) => entry.row).sort(newestFirst);
    }
    return this.sorted;
  }

  /** One session's row, if the home has it. */
  row(sessionId: string): RunRow | undefined {
    return this.sessions.get(sessionId)?.row;
  }

  /**
   * The rows of a population (the same window and kind rule as every readout), newest first;
   * kept per version, population and minute.
   */
  population(options: PopulationOptions): readonly RunRow[] {
    const minute = Math.floor(options.now.getTime() / 60_000);
    const key = JSON.stringify({ ...options, now: minute, version: this.version });
    let found = this.populations.get(key);
    if (found === undefined) {
      const wants = wantedBy(options);
      found = this.rows().filter((row) => wants(row.listing));
      if (this.populations.size >= 16) this.populations.clear();
      this.populations.set(key, found);
    }
    return found;
  }

  /** The corpus readout over memory, computed once per version, population and minute. */
  corpus(options: PopulationOptions): Promise<CorpusAppraisal> {
    return this.corpusRead(options).then((read) => read.corpus);
  }

  /**
   * The corpus readout with every source it could not read whole and why: the
   * `not_read_whole` of `mecha sessions appraise --json`, from the same read log.
   */
  corpusRead(options: PopulationOptions): Promise<CorpusRead> {
    // Kept per minute of `now` as well, so a window in days does not drift behind the clock.
    const minute = Math.floor(options.now.getTime() / 60_000);
    const key = JSON.stringify({ ...options, now: minute, version: this.version });
    let found = this.corpusCache.get(key);
    if (found === undefined) {
      const logged = withReadLog(this.ports());
      found = appraiseCorpus(logged.ports, options).then((corpus) => ({
        corpus,
        notReadWhole: logged.problems(),
      }));
      if (this.corpusCache.size >= 16) this.corpusCache.clear();
      this.corpusCache.set(key, found);
    }
    return found;
  }

  /** Called with every change that touched something; returns the unsubscribe. */
  subscribe(listener: (change: ReadoutChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The core's ports over this readout's memory: sessions and stores as last read. */
  ports(): AppraisalPorts {
    const base = this.base;
    const list = async (): Promise<SourceRead<SessionListing>> => {
      if (this.listingState.state === 'unreadable') return this.listingState;
      if (this.listed?.version === this.version) return this.listed.read;
      const records = [...this.sessions.values()]
        .map((entry) => entry.listing)
        .sort((a, b) => (a.sessionId < b.sessionId ? -1 : 1));
      const read: SourceRead<SessionListing> =
        this.listingState.state === 'partial'
          ? { state: 'partial', records, skipped: this.listingState.skipped }
          : { state: 'read', records };
      this.listed = { version: this.version, read };
      return read;
    };
    return memoryPorts(base, {
      list,
      transcript: async (sessionId) =>
        this.sessions.get(sessionId)?.transcript ?? base.sessions.transcript(sessionId),
      store: (key, read) => this.store(key, read),
    });
  }

  /**
   * Takes note of files of the home that changed (paths relative to the home) and refreshes
   * what they feed once the current refresh is done. Resolves when they are taken in.
   */
  changed(paths: Iterable<string>): Promise<void> {
    for (const path of paths) this.pending.add(path.split('\\').join('/'));
    if (!this.scheduled) {
      this.scheduled = true;
      this.flushing = this.flushing.then(async () => {
        this.scheduled = false;
        const batch = [...this.pending];
        this.pending.clear();
        await this.apply(batch).catch((error: unknown) => {
          process.stderr.write(
            `mecha: a live refresh failed (${errorText(error)}); the next change retries\n`,
          );
        });
      });
    }
    return this.flushing;
  }

  /**
   * Looks at every transcript and store (one `stat` each, nothing read) and takes in those that
   * changed, appeared or went since the last look. Returns the paths it took in.
   */
  async refresh(): Promise<readonly string[]> {
    const now = (await liveFileStamps(this.home.path)).stamps;
    const paths = changedStamps(this.stamps, now);
    this.stamps = now;
    if (paths.length > 0) await this.changed(paths);
    return paths;
  }

  /**
   * Follows the home's changes (`watchHome`) until the signal aborts, taking each batch in.
   * The watch is set up before this returns its promise's first tick, so a write after the
   * call is seen; the promise settles when the watch ends.
   */
  follow(options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    const watch = watchHome(this.home.path, options.signal ? { signal: options.signal } : {});
    return (async () => {
      for await (const batch of watch) await this.changed(batch);
    })();
  }

  /** Follows the home's changes until the returned stop is called (see `follow`). */
  watch(): () => void {
    if (this.following !== undefined) return () => this.unwatch();
    this.following = new AbortController();
    void this.follow({ signal: this.following.signal });
    return () => this.unwatch();
  }

  private unwatch(): void {
    this.following?.abort();
    this.following = undefined;
  }

  private store(key: LiveStoreKey, read: () => Promise<SourceRead<unknown>>) {
    let found = this.stores.get(key);
    if (found === undefined) {
      found = read();
      this.stores.set(key, found);
    }
    return found;
  }

  private async reindex(): Promise<void> {
    const ports = this.ports();
    const [outbox, questions, requests, closures, workflows, reflections, ownerOutcomes, charter] =
      await Promise.all([
        ports.outbox.read(),
        ports.questions.read(),
        ports.requests.read(),
        ports.closures.read(),
        ports.workflows.read(),
        ports.learning.reflections(),
        ports.ownerOutcomes.read(),
        ports.charter.lines(),
      ]);
    this.index = indexSessionStores({
      outbox,
      questions,
      requests,
      closures,
      workflows,
      reflections,
      ownerOutcomes,
    });
    this.charter = charter;
  }

  private derive(
    listing: SessionListing,
    transcript: SourceRead<TranscriptEvent>,
    extras: RowExtras,
  ): RunRow {
    return deriveRunRow(listing, transcript, extras, this.index as SessionStoreIndex, this.charter);
  }

  /** Re-derives the sessions a change of stores may touch; adds those whose row changed. */
  private async applyStores(keys: ReadonlySet<LiveStoreKey>, changed: Set<string>): Promise<void> {
    const before = this.index;
    const charterBefore = this.charter;
    for (const key of keys) this.stores.delete(key);
    await this.reindex();
    const affects = storesTouch(keys, {
      before,
      after: this.index as SessionStoreIndex,
      charterChanged: charterBefore.state !== this.charter.state,
    });
    if (affects === 'nobody') return;
    for (const [sessionId, entry] of this.sessions) {
      const affected = affects === 'everyone' || affects(sessionId, entry.transcript);
      if (!affected) continue;
      const previous = entry.row;
      entry.row = this.derive(entry.listing, entry.transcript, previous);
      if (JSON.stringify(previous) !== JSON.stringify(entry.row)) changed.add(sessionId);
    }
  }

  /** Reads one session's transcript again; says whether its row changed and whether a run ended. */
  private async applySession(sessionId: string): Promise<'same' | 'changed' | 'finished'> {
    const full = await this.base.sessions.transcript(sessionId);
    const previous = this.sessions.get(sessionId);
    if (full.state === 'unreadable' && !(await this.exists(sessionId))) {
      if (previous === undefined) return 'same';
      this.sessions.delete(sessionId);
      return 'changed';
    }
    const listing = listingFrom(sessionId, full, previous?.listing);
    const transcript = projectTranscript(full, appraisedEventTypes);
    const row = this.derive(listing, transcript, rowExtras(full));
    this.sessions.set(sessionId, { listing, transcript, row });
    const endedBefore = previous?.row.endedRuns ?? 0;
    if ((row.endedRuns ?? 0) > endedBefore && row.chip !== undefined) {
      this.latest = sessionId;
      return 'finished';
    }
    // A watch may report a file again after it was taken in: only a real change counts.
    return previous === undefined || JSON.stringify(previous.row) !== JSON.stringify(row)
      ? 'changed'
      : 'same';
  }

  private async apply(paths: readonly string[]): Promise<ReadoutChange> {
    const sessionIds = new Set<string>();
    const storeKeys = new Set<LiveStoreKey>();
    for (const path of paths) {
      const sessionId = sessionOfPath(path);
      if (sessionId !== undefined) sessionIds.add(sessionId);
      const key = storeOfFile.get(path);
      if (key !== undefined) storeKeys.add(key);
    }
    const changed = new Set<string>();
    const finished: string[] = [];
    if (storeKeys.size > 0) await this.applyStores(storeKeys, changed);
    for (const sessionId of sessionIds) {
      const outcome = await this.applySession(sessionId);
      if (outcome !== 'same') changed.add(sessionId);
      if (outcome === 'finished') finished.push(sessionId);
    }
    if (changed.size === 0 && storeKeys.size === 0) {
      return { version: this.version, finished, changed: [], files: [] };
    }
    this.sorted = undefined;
    this.corpusCache.clear();
    this.populations.clear();
    this.version += 1;
    const files = paths.filter(
      (path) => storeOfFile.has(path) || changed.has(sessionOfPath(path) ?? ''),
    );
    const change: ReadoutChange = {
      version: this.version,
      finished,
      changed: [...changed],
      files,
    };
    for (const listener of this.listeners) listener(change);
    return change;
  }

  private async exists(sessionId: string): Promise<boolean> {
    try {
      await stat(join(this.home.path, sessionPath(sessionId)));
      return true;
    } catch {
      return false;
    }
  }
}
