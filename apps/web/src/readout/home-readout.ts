import { type FSWatcher, watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AppraisalChip,
  type AppraisalPorts,
  appraisalChip,
  appraiseCorpus,
  appraisedEventTypes,
  type CorpusAppraisal,
  type CurationTarget,
  indexSessionStores,
  type Label,
  type PopulationOptions,
  projectTranscript,
  readSession,
  type SessionListing,
  type SessionStoreIndex,
  type SessionStores,
  type SourceRead,
  scanByListing,
  type TranscriptEvent,
  wantedBy,
} from '@mecha/appraisal-core';
import type { CharterLine } from '@mecha/charter';
import {
  homeLayout,
  homePorts,
  type MechaHome,
  type ReadProblem,
  withReadLog,
} from '@mecha/stores';

/** How long an answer is shown on the runs page before it is cut. */
const answerCharacters = 240;

/** One session as the runs page shows it: where and when, its last answer, and its chip. */
export interface RunRow {
  readonly sessionId: string;
  readonly listing: SessionListing;
  readonly state: 'read' | 'partial' | 'unreadable';
  /** Why the transcript could not be read, when it could not. */
  readonly reason?: string;
  /** Runs begun and runs finished; unknown (null) for an unreadable transcript. */
  readonly runs: number | null;
  readonly endedRuns: number | null;
  readonly label: Label | null;
  readonly valence: {
    readonly positive: number;
    readonly negative: number;
    readonly partial: boolean;
  } | null;
  /** The chip every surface shows, or undefined for a silent run (or an unreadable one). */
  readonly chip: AppraisalChip | undefined;
  /** The last assistant answer, shortened; undefined when the run recorded none. */
  readonly lastAnswer: string | undefined;
  /** Whether anything third-party reached the session (the taint chip, apart from the appraisal). */
  readonly thirdParty: boolean;
  /** When the session last recorded anything (its last event), for ordering live updates. */
  readonly lastAt: string | undefined;
}

/** The corpus readout and what it could not read whole (`not_read_whole` of the CLI's JSON). */
export interface CorpusRead {
  readonly corpus: CorpusAppraisal;
  readonly notReadWhole: readonly ReadProblem[];
}

/** What one refresh changed: sessions whose transcript changed, and whether the stores did. */
export interface ReadoutChange {
  readonly version: number;
  /** Sessions that finished a run in this change and have something signed to show. */
  readonly finished: readonly string[];
  /** Every session whose row changed. */
  readonly changed: readonly string[];
}

type StoreKey =
  | 'outbox'
  | 'questions'
  | 'requests'
  | 'closures'
  | 'workflows'
  | 'board'
  | 'charter'
  | 'reflections'
  | 'curation:rule'
  | 'curation:reflection'
  | 'curation:candidate'
  | 'textAppraisals'
  | 'counterfactuals'
  | 'comparisons'
  | 'scores'
  | 'ownerOutcomes'
  | 'predictions';

/** Which store a file of the home is, by its path relative to the home. */
const storeOfFile: ReadonlyMap<string, StoreKey> = new Map<string, StoreKey>([
  [homeLayout.outbox, 'outbox'],
  [homeLayout.questions, 'questions'],
  [homeLayout.requests, 'requests'],
  [homeLayout.closures, 'closures'],
  [homeLayout.workflows, 'workflows'],
  [homeLayout.board, 'board'],
  [homeLayout.charter, 'charter'],
  [homeLayout.reflections, 'reflections'],
  [homeLayout.ruleVerdicts, 'curation:rule'],
  [homeLayout.reflectionVerdicts, 'curation:reflection'],
  [homeLayout.candidateVerdicts, 'curation:candidate'],
  [homeLayout.textAppraisals, 'textAppraisals'],
  [homeLayout.counterfactuals, 'counterfactuals'],
  [homeLayout.comparisons, 'comparisons'],
  [homeLayout.scores, 'scores'],
  [homeLayout.ownerOutcomes, 'ownerOutcomes'],
  [homeLayout.predictions, 'predictions'],
]);

/** The stores a session's evidence is built from: a change there may change its reading. */
const evidenceStores: ReadonlyMap<StoreKey, keyof SessionStores> = new Map<
  StoreKey,
  keyof SessionStores
>([
  ['outbox', 'outbox'],
  ['questions', 'questions'],
  ['requests', 'requests'],
  ['closures', 'closures'],
  ['workflows', 'workflows'],
  ['reflections', 'reflections'],
  ['ownerOutcomes', 'ownerOutcomes'],
]);

interface SessionEntry {
  listing: SessionListing;
  /** The transcript cut down to the reading's events (and its last event). */
  transcript: SourceRead<TranscriptEvent>;
  row: RunRow;
}

const sessionFile = /^sessions\/([A-Za-z0-9][A-Za-z0-9._:-]*)\.jsonl$/;

function lastAnswerOf(records: readonly TranscriptEvent[]): string | undefined {
  for (let index = records.length - 1; index >= 0; index -= 1) {
    const event = records[index];
    if (event?.type === 'message' && event.role === 'assistant' && event.text !== undefined) {
      const text = event.text.replace(/\s+/g, ' ').trim();
      return text.length > answerCharacters ? `${text.slice(0, answerCharacters - 1)}…` : text;
    }
  }
  return undefined;
}

function touchedThirdParty(records: readonly TranscriptEvent[]): boolean {
  return records.some(
    (event) =>
      (event.type === 'message' || event.type === 'tool_result') && event.taint === 'third_party',
  );
}

function listingFrom(
  sessionId: string,
  transcript: SourceRead<TranscriptEvent>,
  previous: SessionListing | undefined,
): SessionListing {
  if (transcript.state !== 'unreadable') {
    const head = transcript.records.find((event) => event.type === 'run_start');
    if (head?.type === 'run_start') {
      return { sessionId, startedAt: head.at, kind: head.session_kind, surface: head.surface };
    }
  }
  return previous ?? { sessionId, startedAt: new Date(0).toISOString() };
}

function recordCount(read: SourceRead<unknown>): number {
  return read.state === 'unreadable' ? 0 : read.records.length;
}

function newestFirst(a: RunRow, b: RunRow): number {
  const x = a.listing.startedAt;
  const y = b.listing.startedAt;
  if (x !== y) return x < y ? 1 : -1;
  return a.sessionId < b.sessionId ? 1 : a.sessionId > b.sessionId ? -1 : 0;
}

/**
 * The web board's readout of a home, kept in memory: derived once at start from the records,
 * then re-derived only for the sessions whose files changed (a transcript appended to, or a
 * store that holds their evidence). Nothing is written anywhere; a restart derives again. Its
 * `ports` serve the core's readouts (appraiseCorpus, appraiseSession, successes) from memory.
 * Each transcript is kept cut down to the core's `appraisedEventTypes`, which appraise exactly
 * as the whole transcript does.
 */
export class HomeReadout {
  readonly home: MechaHome;
  private readonly base: AppraisalPorts;
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly stores = new Map<StoreKey, Promise<SourceRead<unknown>>>();
  private listingState: SourceRead<SessionListing> = { state: 'read', records: [] };
  private index: SessionStoreIndex | undefined;
  private charter: SourceRead<CharterLine> = { state: 'read', records: [] };
  private sorted: RunRow[] | undefined;
  private corpusCache = new Map<string, Promise<CorpusRead>>();
  private populations = new Map<string, RunRow[]>();
  private listed: { version: number; read: SourceRead<SessionListing> } | undefined;
  private listeners = new Set<(change: ReadoutChange) => void>();
  private pending = new Set<string>();
  private flushing: Promise<void> = Promise.resolve();
  private scheduled = false;
  private readonly watchers = new Map<string, FSWatcher>();
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
    const entries: { listing: SessionListing; transcript: SourceRead<TranscriptEvent> }[] = [];
    const extra = new Map<string, { answer: string | undefined; thirdParty: boolean }>();
    const listing = await this.base.sessions.scan({
      population: 'every',
      visit: (member, transcript) => {
        if (transcript.state !== 'unreadable') {
          extra.set(member.sessionId, {
            answer: lastAnswerOf(transcript.records),
            thirdParty: touchedThirdParty(transcript.records),
          });
        }
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
      const more = extra.get(member.sessionId);
      this.sessions.set(member.sessionId, {
        listing: member,
        transcript,
        row: this.derive(member, transcript, more?.answer, more?.thirdParty ?? false),
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
    const store = <T>(key: StoreKey, read: () => Promise<SourceRead<T>>) =>
      this.store(key, read as () => Promise<SourceRead<unknown>>) as Promise<SourceRead<T>>;
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
    const transcript = async (sessionId: string): Promise<SourceRead<TranscriptEvent>> =>
      this.sessions.get(sessionId)?.transcript ?? base.sessions.transcript(sessionId);
    const curation = (target: CurationTarget) =>
      store(`curation:${target}`, () => base.learning.curation(target));
    return {
      sessions: { list, transcript, scan: scanByListing({ list, transcript }) },
      outbox: { read: () => store('outbox', () => base.outbox.read()) },
      questions: { read: () => store('questions', () => base.questions.read()) },
      requests: { read: () => store('requests', () => base.requests.read()) },
      closures: { read: () => store('closures', () => base.closures.read()) },
      workflows: { read: () => store('workflows', () => base.workflows.read()) },
      board: { read: () => store('board', () => base.board.read()) },
      charter: { lines: () => store('charter', () => base.charter.lines()) },
      learning: {
        reflections: () => store('reflections', () => base.learning.reflections()),
        curation,
        textAppraisals: () => store('textAppraisals', () => base.learning.textAppraisals()),
        counterfactuals: () => store('counterfactuals', () => base.learning.counterfactuals()),
        comparisons: () => store('comparisons', () => base.learning.comparisons()),
        scores: () => store('scores', () => base.learning.scores()),
      },
      ownerOutcomes: { read: () => store('ownerOutcomes', () => base.ownerOutcomes.read()) },
      predictions: { read: () => store('predictions', () => base.predictions.read()) },
    };
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
            `mecha web: a refresh failed (${error instanceof Error ? error.message : String(error)}); the next change retries\n`,
          );
        });
      });
    }
    return this.flushing;
  }

  /**
   * Watches the home for changes; returns the stop. One watch per folder (the sessions folder,
   * each store's folder, the home itself for the charter), never one per file: Node's recursive
   * watch on Linux opens a watcher for every transcript, which a large home cannot afford.
   */
  watch(): () => void {
    if (this.watchers.size > 0) return () => this.unwatch();
    const folders = new Set<string>([
      '',
      homeLayout.sessions,
      ...[...storeOfFile.keys()].flatMap((file) =>
        file.includes('/') ? [file.slice(0, file.lastIndexOf('/'))] : [],
      ),
    ]);
    const watchFolder = (folder: string) => {
      if (this.watchers.has(folder)) return;
      let watcher: FSWatcher;
      try {
        watcher = watch(
          folder === '' ? this.home.path : join(this.home.path, folder),
          (_event, name) => {
            if (name === null) return;
            const path = folder === '' ? name.toString() : `${folder}/${name.toString()}`;
            if (folders.has(path) && !this.watchers.has(path)) {
              // A store's folder appeared after the start: watch it, and read what it holds.
              watchFolder(path);
              void this.changed(
                [...storeOfFile.keys()].filter((file) => file.startsWith(`${path}/`)),
              );
              return;
            }
            if (sessionFile.test(path) || storeOfFile.has(path)) void this.changed([path]);
          },
        );
      } catch {
        return; // Not there yet: the home's own watch sees it appear.
      }
      watcher.on('error', (error) => {
        process.stderr.write(
          `mecha web: watching ${folder || 'the home'} failed: ${error.message}\n`,
        );
      });
      this.watchers.set(folder, watcher);
    };
    for (const folder of folders) watchFolder(folder);
    return () => this.unwatch();
  }

  private unwatch(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private store(key: StoreKey, read: () => Promise<SourceRead<unknown>>) {
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
    lastAnswer: string | undefined,
    thirdParty: boolean,
  ): RunRow {
    const sessionId = listing.sessionId;
    if (transcript.state === 'unreadable') {
      return {
        sessionId,
        listing,
        state: 'unreadable',
        reason: transcript.reason,
        runs: null,
        endedRuns: null,
        label: null,
        valence: null,
        chip: undefined,
        lastAnswer: undefined,
        thirdParty,
        lastAt: undefined,
      };
    }
    const index = this.index as SessionStoreIndex;
    const reading = readSession(index.evidenceFor(sessionId, transcript), this.charter);
    const records = transcript.records;
    return {
      sessionId,
      listing,
      state: transcript.state,
      runs: records.filter((event) => event.type === 'run_start').length,
      endedRuns: records.filter((event) => event.type === 'run_end').length,
      label: reading.label,
      valence: { ...reading.valence },
      chip: appraisalChip(reading),
      lastAnswer,
      thirdParty,
      lastAt: records[records.length - 1]?.at,
    };
  }

  private rederive(sessionId: string): void {
    const entry = this.sessions.get(sessionId);
    if (entry === undefined) return;
    entry.row = this.derive(
      entry.listing,
      entry.transcript,
      entry.row.lastAnswer,
      entry.row.thirdParty,
    );
  }

  private async apply(paths: readonly string[]): Promise<ReadoutChange> {
    const sessionIds = new Set<string>();
    const storeKeys = new Set<StoreKey>();
    for (const path of paths) {
      const match = sessionFile.exec(path);
      if (match !== null) sessionIds.add(match[1] as string);
      const key = storeOfFile.get(path);
      if (key !== undefined) storeKeys.add(key);
    }
    const changed = new Set<string>();
    const finished: string[] = [];

    if (storeKeys.size > 0) {
      const before = this.index;
      const charterBefore = this.charter;
      for (const key of storeKeys) this.stores.delete(key);
      await this.reindex();
      const after = this.index as SessionStoreIndex;
      const everyone =
        storeKeys.has('charter') ||
        charterBefore.state !== this.charter.state ||
        before === undefined ||
        [...storeKeys].some((key) => {
          const name = evidenceStores.get(key);
          return name !== undefined && before.stores[name].state !== after.stores[name].state;
        });
      const touched = [...storeKeys].flatMap((key) => {
        const name = evidenceStores.get(key);
        return name === undefined ? [] : [name];
      });
      if (everyone || touched.length > 0) {
        for (const [sessionId, entry] of this.sessions) {
          const affected =
            everyone ||
            touched.some(
              (name) =>
                (before !== undefined &&
                  recordCount(before.evidenceFor(sessionId, entry.transcript)[name]) > 0) ||
                recordCount(after.evidenceFor(sessionId, entry.transcript)[name]) > 0,
            );
          if (!affected) continue;
          const previous = entry.row;
          this.rederive(sessionId);
          if (JSON.stringify(previous) !== JSON.stringify(entry.row)) changed.add(sessionId);
        }
      }
    }

    for (const sessionId of sessionIds) {
      const full = await this.base.sessions.transcript(sessionId);
      const previous = this.sessions.get(sessionId);
      if (
        full.state === 'unreadable' &&
        previous === undefined &&
        !(await this.exists(sessionId))
      ) {
        continue;
      }
      if (full.state === 'unreadable' && !(await this.exists(sessionId))) {
        this.sessions.delete(sessionId);
        changed.add(sessionId);
        continue;
      }
      const listing = listingFrom(sessionId, full, previous?.listing);
      const transcript = projectTranscript(full, appraisedEventTypes);
      const row = this.derive(
        listing,
        transcript,
        full.state === 'unreadable' ? undefined : lastAnswerOf(full.records),
        full.state === 'unreadable' ? false : touchedThirdParty(full.records),
      );
      this.sessions.set(sessionId, { listing, transcript, row });
      // A watch may report a file again after it was taken in: only a real change counts.
      if (previous === undefined || JSON.stringify(previous.row) !== JSON.stringify(row)) {
        changed.add(sessionId);
      }
      const endedBefore = previous?.row.endedRuns ?? 0;
      if ((row.endedRuns ?? 0) > endedBefore && row.chip !== undefined) {
        finished.push(sessionId);
        this.latest = sessionId;
      }
    }

    if (changed.size === 0 && storeKeys.size === 0) {
      return { version: this.version, finished, changed: [] };
    }
    this.sorted = undefined;
    this.corpusCache.clear();
    this.populations.clear();
    this.version += 1;
    const change: ReadoutChange = { version: this.version, finished, changed: [...changed] };
    for (const listener of this.listeners) listener(change);
    return change;
  }

  private async exists(sessionId: string): Promise<boolean> {
    try {
      await stat(join(this.home.path, homeLayout.sessions, `${sessionId}.jsonl`));
      return true;
    } catch {
      return false;
    }
  }
}
