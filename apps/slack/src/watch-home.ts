import type { TranscriptEvent } from '@mecha/appraisal-core';
import { HomeReadout, homeLayout, type MechaHome, runsOfTranscript } from '@mecha/stores';
import type { webApi } from '@slack/bolt';
import * as E from 'fp-ts/lib/Either.js';
import { goalTitle, readHomeTitles } from './goal-title.js';
import { runAbout, runEndMessage } from './post-run-end.js';
import {
  retryDelayMs,
  type StandingSlackError,
  standingErrorLine,
  standingSlackError,
} from './retry-policy.js';
import { runKey, type SlackLedgerEntry, updateSlackLedger } from './slack-ledger.js';
import { draftMessage, idFooter, type StagedDraft, slackText } from './slack-messages.js';

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

interface Candidate {
  readonly sessionId: string;
  readonly runId: string;
  readonly events: readonly TranscriptEvent[];
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

const errorText = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 400);

/**
 * Watches the home for runs the harness recorded from Slack and drafts staged for the owner,
 * and posts each once: a run's context line in its session's thread (nothing for a silent
 * run), a draft with its buttons. The ledger (`slack/posted.jsonl`) is claimed before each
 * post, so a restart never posts a run twice. Only what ended after the watcher first started
 * in this home is posted.
 */
export function watchHome(options: WatchOptions): HomeWatcher {
  const { home, client, channel, log } = options;
  const clock = options.clock ?? (() => new Date());
  const now = () => clock().toISOString();
  const schedule =
    options.schedule ??
    ((run: () => void, ms: number) => {
      const handle = setTimeout(run, ms);
      handle.unref?.();
      return { cancel: () => clearTimeout(handle) };
    });
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
  // Each post that failed: how many times, and the earliest time to try it again.
  const backoff = new Map<string, { failures: number; nextAt: number }>();
  let halted: StandingSlackError | undefined;
  /** Whether a post is still waiting out its wait after a failure. */
  const waitingOut = (key: string) => {
    const held = backoff.get(key);
    return held !== undefined && clock().getTime() < held.nextAt;
  };
  /** Records a failure: the next try waits twice as long; a standing error halts posting. */
  const failedAt = async (key: string, error: unknown) => {
    const failures = (backoff.get(key)?.failures ?? 0) + 1;
    backoff.set(key, { failures, nextAt: clock().getTime() + retryDelayMs(failures) });
    const standing = standingSlackError(error);
    if (standing === undefined || halted !== undefined) return;
    halted = standing;
    const line = standingErrorLine(standing, channel);
    log(`slack: ${line}`);
    try {
      await options.onHalt?.(line, standing);
    } catch (dmError) {
      log(`slack: the owner could not be told by DM either: ${errorText(dmError)}`);
    }
  };

  const record = (entries: readonly SlackLedgerEntry[]) =>
    updateSlackLedger(home.path, () => ({ append: entries, result: undefined }));

  async function threadFor(sessionId: string, about: string): Promise<string | undefined> {
    const known = await updateSlackLedger(home.path, (ledger) => ({
      append: [],
      result: ledger.threads.get(sessionId)?.ts,
    }));
    if (E.isLeft(known)) throw new Error(known.left);
    if (known.right !== undefined) return known.right;
    const parent = await client.chat.postMessage({
      channel,
      text: slackText(`mecha · ${about}`),
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: `*${slackText(about)}*` } },
        idFooter([`mecha · session ${sessionId}`]),
      ] as never,
    });
    if (parent.ts === undefined) return undefined;
    const written = await record([
      { v: 1, kind: 'thread', at: now(), session_id: sessionId, channel, ts: parent.ts },
    ]);
    if (E.isLeft(written))
      log(`slack: the thread of ${sessionId} was not recorded: ${written.left}`);
    return parent.ts;
  }

  async function postRun(
    candidate: Candidate,
  ): Promise<'posted' | 'silent' | 'failed' | 'skipped' | 'waiting'> {
    const { sessionId, runId } = candidate;
    const key = `run:${runKey(sessionId, runId)}`;
    if (waitingOut(key)) return 'waiting';
    const start = candidate.events.find((event) => event.type === 'run_start');
    const title = goalTitle(
      start?.type === 'run_start' ? start.goal : undefined,
      await readHomeTitles(home),
    );
    const message = runEndMessage(candidate.events, title);
    const text = message?.line;
    const claim = await updateSlackLedger(home.path, (ledger) => {
      const earlier = ledger.runs.get(runKey(sessionId, runId));
      if (earlier !== undefined && earlier.state !== 'failed') return { append: [], result: false };
      return {
        append: [
          {
            v: 1,
            kind: 'run_end',
            at: now(),
            session_id: sessionId,
            run_id: runId,
            state: text === undefined ? 'silent' : 'posting',
          },
        ],
        result: true,
      };
    });
    if (E.isLeft(claim)) throw new Error(claim.left);
    if (!claim.right) return 'skipped';
    if (message === undefined || text === undefined) return 'silent';
    try {
      const threadTs = await threadFor(sessionId, runAbout(candidate.events, title));
      const posted = await client.chat.postMessage({
        channel,
        ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
        text: message.text,
        blocks: message.blocks as never,
      });
      await record([
        {
          v: 1,
          kind: 'run_end',
          at: now(),
          session_id: sessionId,
          run_id: runId,
          state: 'posted',
          channel,
          text,
          ...(posted.ts === undefined ? {} : { ts: posted.ts }),
        },
      ]);
      backoff.delete(key);
      return 'posted';
    } catch (error) {
      if (standingSlackError(error) === undefined) {
        log(`slack: the line for run ${runId} was not posted: ${errorText(error)}`);
      }
      await failedAt(key, error);
      await record([
        {
          v: 1,
          kind: 'run_end',
          at: now(),
          session_id: sessionId,
          run_id: runId,
          state: 'failed',
          error: errorText(error),
        },
      ]);
      return 'failed';
    }
  }

  async function postDraft(
    draft: StagedDraft,
  ): Promise<'posted' | 'failed' | 'skipped' | 'waiting'> {
    const key = `draft:${draft.draft_id}`;
    if (waitingOut(key)) return 'waiting';
    const claim = await updateSlackLedger(home.path, (ledger) => {
      const earlier = ledger.drafts.get(draft.draft_id);
      if (earlier !== undefined && earlier.state !== 'failed') return { append: [], result: false };
      return {
        append: [{ v: 1, kind: 'draft', at: now(), draft_id: draft.draft_id, state: 'posting' }],
        result: true,
      };
    });
    if (E.isLeft(claim)) throw new Error(claim.left);
    if (!claim.right) return 'skipped';
    try {
      const message = draftMessage({
        draft,
        goalTitle: goalTitle(draft.goal, await readHomeTitles(home)),
        boardUrl: options.boardUrl,
      });
      const posted = await client.chat.postMessage({
        channel,
        text: message.text,
        blocks: message.blocks as never,
      });
      await record([
        {
          v: 1,
          kind: 'draft',
          at: now(),
          draft_id: draft.draft_id,
          state: 'posted',
          channel,
          ...(posted.ts === undefined ? {} : { ts: posted.ts }),
        },
      ]);
      backoff.delete(key);
      return 'posted';
    } catch (error) {
      if (standingSlackError(error) === undefined) {
        log(`slack: draft ${draft.draft_id} was not posted: ${errorText(error)}`);
      }
      await failedAt(key, error);
      await record([
        {
          v: 1,
          kind: 'draft',
          at: now(),
          draft_id: draft.draft_id,
          state: 'failed',
          error: errorText(error),
        },
      ]);
      return 'failed';
    }
  }

  async function look(): Promise<WatchTick> {
    const counts = { posted: 0, silent: 0, drafts: 0, failed: 0, waiting: 0 };
    const problems: string[] = [];
    // After an error that will not fix itself, nothing is tried again: not one more call.
    if (halted !== undefined) return { ...counts, problems, halted };
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
      let settled = true;
      for (const candidate of finishedSlackRuns(sessionId, transcript.records, since)) {
        if (halted !== undefined) break;
        const outcome = await postRun(candidate);
        if (outcome !== 'skipped') counts[outcome] += 1;
        if (outcome === 'failed' || outcome === 'waiting') settled = false;
      }
      if (settled) dirty.delete(sessionId);
    }

    if (outboxDirty) {
      const outbox = await readout.ports().outbox.read();
      if (outbox.state === 'unreadable') problems.push(`outbox: ${outbox.reason}`);
      else {
        let settled = true;
        const decided = new Set(
          outbox.records.flatMap((record) => (record.type === 'outcome' ? [record.draft_id] : [])),
        );
        for (const record of outbox.records) {
          if (record.type !== 'staged' || decided.has(record.draft_id)) continue;
          if (Date.parse(record.at) < since || halted !== undefined) continue;
          const outcome = await postDraft(record);
          if (outcome === 'posted') counts.drafts += 1;
          if (outcome === 'failed' || outcome === 'waiting') {
            counts[outcome] += 1;
            settled = false;
          }
        }
        outboxDirty = !settled;
      }
    }
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
