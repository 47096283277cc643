import type { TranscriptEvent } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { draftMessage, type StagedDraft } from './draft-messages.js';
import { goalTitle, readHomeTitles } from './goal-title.js';
import { runAbout, runEndMessage } from './post-run-end.js';
import {
  retryDelayMs,
  type StandingSlackError,
  standingErrorLine,
  standingSlackError,
} from './retry-policy.js';
import { runKey, type SlackLedgerEntry, updateSlackLedger } from './slack-ledger.js';
import { idFooter, slackText } from './slack-messages.js';
import type { WatchOptions } from './watch-home.js';

/** A finished run to post: its session, its id, and its own events. */
export interface Candidate {
  readonly sessionId: string;
  readonly runId: string;
  readonly events: readonly TranscriptEvent[];
}

/** What one post came to. */
export type PostOutcome = 'posted' | 'silent' | 'failed' | 'skipped' | 'waiting';

/** Posts runs and drafts, once each (claimed in the ledger first), backing off per post. */
export interface SlackPoster {
  postRun(candidate: Candidate): Promise<PostOutcome>;
  postDraft(draft: StagedDraft): Promise<Exclude<PostOutcome, 'silent'>>;
  /** Set once Slack answered with an error that will not fix itself: nothing more is posted. */
  halted(): StandingSlackError | undefined;
}

export const errorText = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 400);

/** The ledger, the clock and the back-off every post shares. */
interface PostState {
  readonly options: WatchOptions;
  readonly now: () => string;
  waitingOut(key: string): boolean;
  failedAt(key: string, error: unknown): Promise<void>;
  /** A post went through: its back-off is forgotten. */
  succeeded(key: string): void;
  record(entries: readonly SlackLedgerEntry[]): ReturnType<typeof updateSlackLedger<undefined>>;
  halted(): StandingSlackError | undefined;
}

function postState(options: WatchOptions): PostState {
  const { home, channel, log } = options;
  const clock = options.clock ?? (() => new Date());
  const now = () => clock().toISOString();
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

  return {
    options,
    now,
    waitingOut,
    failedAt,
    succeeded: (key) => backoff.delete(key),
    record,
    halted: () => halted,
  };
}

function runPoster(state: PostState): SlackPoster['postRun'] {
  const { options, now, waitingOut, failedAt, succeeded, record } = state;
  const { home, client, channel, log } = options;
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

  return async function postRun(candidate: Candidate): Promise<PostOutcome> {
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
      succeeded(key);
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
  };
}

function draftPoster(state: PostState): SlackPoster['postDraft'] {
  const { options, now, waitingOut, failedAt, succeeded, record } = state;
  const { home, client, channel, log } = options;
  return async function postDraft(draft: StagedDraft): Promise<Exclude<PostOutcome, 'silent'>> {
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
      succeeded(key);
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
  };
}

/** The poster of one watcher: runs and drafts, with one back-off and one halt between them. */
export function slackPoster(options: WatchOptions): SlackPoster {
  const state = postState(options);
  return { postRun: runPoster(state), postDraft: draftPoster(state), halted: state.halted };
}
