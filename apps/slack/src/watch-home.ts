import type { OutboxRecord, TranscriptEvent } from '@mecha/appraisal-core';
import { HomeReadout, homeLayout, type MechaHome, runsOfTranscript } from '@mecha/stores';
import type { webApi } from '@slack/bolt';
import * as E from 'fp-ts/lib/Either.js';
import type { StandingSlackError } from './retry-policy.js';
import { updateSlackLedger } from './slack-ledger.js';
import { type Candidate, errorText, type SlackPoster, slackPoster } from './slack-poster.js';

/** What one look at the home did. */
export interface WatchTick {
  readonly posted: number;
  readonly silent: number;
  readonly drafts: number;
  /** Posts that failed; each is tried again once its wait is over (`retryDelayMs`). */
  readonly failed: number;
  /** Posts still waiting out the wait after a failure: not tried on this look. */
  readonly waiting: number;
  /** Set once Slack answered with an error that will not fix itself: nothing more is posted. */
  readonly halted?: StandingSlackError | undefined;
  /** Why the look was cut short (an unreadable ledger, sessions or outbox), if it was. */
  readonly problems: readonly string[];
}

/** The watcher: `tick` looks once; `start` looks every `pollMs`, `stop` ends that. */
export interface HomeWatcher {
  tick(): Promise<WatchTick>;
  start(pollMs: number): void;
  stop(): Promise<void>;
}

/** What the watcher needs: the home, a Web API client, where to post and where to log. */
export interface WatchOptions {
  readonly home: MechaHome;
  readonly client: webApi.WebClient;
  readonly channel: string;
  readonly log: (line: string) => void;
  readonly clock?: () => Date;
  /** The web board's address, for "Open on the board" on a draft too long for Slack. */
  readonly boardUrl?: string | undefined;
  /**
   * Called once when Slack answers with an error that will not fix itself, with the line that
   * says which setting to fix (the app sends it to the owner by DM when it can).
   */
  readonly onHalt?: (line: string, failure: StandingSlackError) => Promise<void>;
  /** Runs `run` after `ms` (a timer by default; tests run each look by hand). */
  readonly schedule?: (run: () => void, ms: number) => { cancel(): void };
  /** The home's live readout (`@mecha/stores`), when the app already holds one. */
  readonly readout?: HomeReadout;
}

/** Runs started from Slack that ended at or after `since`, with their own events. */
function finishedSlackRuns(
  sessionId: string,
  events: readonly TranscriptEvent[],
  since: number,
): Candidate[] {
  return runsOfTranscript(events).flatMap(({ runId, events: run }) => {
    const start = run.find((event) => event.type === 'run_start');
    const end = run.find((event) => event.type === 'run_end');
    if (start?.type !== 'run_start' || start.surface !== 'slack' || end === undefined) return [];
    return Date.parse(end.at) < since ? [] : [{ sessionId, runId, events: run }];
  });
}

/** Runs `run` after `ms` on a timer that does not keep the process alive. */
function onTimer(run: () => void, ms: number): { cancel(): void } {
  const handle = setTimeout(run, ms);
  handle.unref?.();
  return { cancel: () => clearTimeout(handle) };
}

/** What a look counted, by outcome. */
type Counts = Record<'posted' | 'silent' | 'drafts' | 'failed' | 'waiting', number>;

/** Posts a session's finished runs; whether each was settled (none left to try again). */
async function postRuns(
  poster: SlackPoster,
  candidates: readonly Candidate[],
  counts: Counts,
): Promise<boolean> {
  let settled = true;
  for (const candidate of candidates) {
    if (poster.halted() !== undefined) break;
    const outcome = await poster.postRun(candidate);
    if (outcome !== 'skipped') counts[outcome] += 1;
    if (outcome === 'failed' || outcome === 'waiting') settled = false;
  }
  return settled;
}

/** Posts the drafts staged since the watch began and not yet decided; whether all settled. */
async function postDrafts(
  poster: SlackPoster,
  records: readonly OutboxRecord[],
  since: number,
  counts: Counts,
): Promise<boolean> {
  let settled = true;
  const decided = new Set(
    records.flatMap((record) => (record.type === 'outcome' ? [record.draft_id] : [])),
  );
  for (const record of records) {
    if (record.type !== 'staged' || decided.has(record.draft_id)) continue;
    if (Date.parse(record.at) < since || poster.halted() !== undefined) continue;
    const outcome = await poster.postDraft(record);
    if (outcome === 'posted') counts.drafts += 1;
    if (outcome === 'failed' || outcome === 'waiting') {
      counts[outcome] += 1;
      settled = false;
    }
  }
  return settled;
}

/**
 * Watches the home for runs the harness recorded from Slack and drafts staged for the owner,
 * and posts each once: a run's context line in its session's thread (nothing for a silent
 * run), a draft with its buttons. The ledger (`slack/posted.jsonl`) is claimed before each
 * post, so a restart never posts a run twice. Only what ended after the watcher first started
 * in this home is posted.
 */
export function watchHome(options: WatchOptions): HomeWatcher {
  const { home, log } = options;
  const clock = options.clock ?? (() => new Date());
  const now = () => clock().toISOString();
  const schedule = options.schedule ?? onTimer;
  let timer: { cancel(): void } | undefined;
  let running: Promise<WatchTick> | undefined;
  // The home as the live readout of `@mecha/stores` keeps it: each look takes in what changed
  // since the last (one stat per file), and only the sessions it names are read whole here.
  const readout = options.readout ?? new HomeReadout(home);
  let readoutStarted = false;
  // Sessions and the outbox still to look at: changed since their last look, or left with a
  // post to try again.
  const dirty = new Set<string>();
  let outboxDirty = true;
  readout.subscribe((change) => {
    for (const sessionId of change.changed) dirty.add(sessionId);
    if (change.files.includes(homeLayout.outbox)) outboxDirty = true;
  });
  let watchFrom: string | undefined;
  const poster = slackPoster(options);

  async function look(): Promise<WatchTick> {
    const counts: Counts = { posted: 0, silent: 0, drafts: 0, failed: 0, waiting: 0 };
    const problems: string[] = [];
    // After an error that will not fix itself, nothing is tried again: not one more call.
    const stopped = poster.halted();
    if (stopped !== undefined) return { ...counts, problems, halted: stopped };
    if (watchFrom === undefined) {
      const started = await updateSlackLedger(home.path, (ledger) =>
        ledger.watchFrom === undefined
          ? { append: [{ v: 1, kind: 'watch_from', at: now() }], result: now() }
          : { append: [], result: ledger.watchFrom },
      );
      if (E.isLeft(started)) return { ...counts, problems: [started.left] };
      watchFrom = started.right;
    }
    const since = Date.parse(watchFrom);

    if (!readoutStarted) {
      await readout.start();
      readoutStarted = true;
      // The first look: every session that recorded anything since the watch began.
      for (const row of readout.rows()) {
        if (row.state === 'unreadable' || Date.parse(row.lastAt ?? '') >= since) {
          dirty.add(row.sessionId);
        }
      }
    } else {
      await readout.refresh();
    }
    const listing = readout.listing();
    if (typeof listing === 'object') problems.push(`sessions: ${listing.unreadable}`);
    for (const sessionId of [...dirty].sort()) {
      const transcript = await home.sessions.transcript(sessionId);
      if (transcript.state === 'unreadable') {
        problems.push(`session ${sessionId}: ${transcript.reason}`);
        continue;
      }
      const settled = await postRuns(
        poster,
        finishedSlackRuns(sessionId, transcript.records, since),
        counts,
      );
      if (settled) dirty.delete(sessionId);
    }

    if (outboxDirty) {
      const outbox = await readout.ports().outbox.read();
      if (outbox.state === 'unreadable') problems.push(`outbox: ${outbox.reason}`);
      else {
        const settled = await postDrafts(poster, outbox.records, since, counts);
        outboxDirty = !settled;
      }
    }
    const halted = poster.halted();
    return { ...counts, problems, ...(halted === undefined ? {} : { halted }) };
  }

  const tick = (): Promise<WatchTick> => {
    // One look at a time: a tick asked for during a look waits for it, then looks again.
    const previous = running ?? Promise.resolve(undefined);
    const next = previous.then(look, look).catch((error: unknown) => ({
      posted: 0,
      silent: 0,
      drafts: 0,
      failed: 0,
      waiting: 0,
      problems: [errorText(error)],
    }));
    running = next;
    return next;
  };

  return {
    tick,
    start(pollMs) {
      if (timer !== undefined) return;
      // A problem is said once, and again only when it changes (not on every look).
      let said = '';
      const loop = () => {
        timer = schedule(async () => {
          const done = await tick();
          const now = done.problems.join('\n');
          if (now !== said) for (const problem of done.problems) log(`slack: watcher: ${problem}`);
          said = now;
          if (timer !== undefined) loop();
        }, pollMs);
      };
      loop();
    },
    async stop() {
      timer?.cancel();
      timer = undefined;
      await running;
    },
  };
}
