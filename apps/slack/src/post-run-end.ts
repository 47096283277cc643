import { appraiseRun, explainLabel, goalText, type TranscriptEvent } from '@mecha/appraisal-core';
import type { webApi } from '@slack/bolt';

type WebClient = webApi.WebClient;

import { runEndContextLine } from './run-end-context-line.js';
import { idFooter, type SlackMessage, slackText } from './slack-messages.js';

/** Where a run's line goes: the channel and the thread the run talked in. */
export interface RunThread {
  readonly channel: string;
  readonly threadTs: string;
}

/** What posting a run's line came to: the line posted, or nothing for a silent run. */
export type RunEndPost =
  | { readonly state: 'posted'; readonly text: string; readonly ts: string | undefined }
  | { readonly state: 'silent' };

/** The context line for a run, from the live readout of the run's own events; none if silent. */
export function runEndLine(run: readonly TranscriptEvent[]): string | undefined {
  return runEndContextLine(appraiseRun(run));
}

/** What a run worked on, in words: its goal's title when known, else the goal's pointer. */
export function runAbout(run: readonly TranscriptEvent[], goalTitle?: string): string {
  if (goalTitle !== undefined) return goalTitle;
  const start = run.find((event) => event.type === 'run_start');
  const goal = start?.type === 'run_start' ? start.goal : undefined;
  return goal === undefined ? 'A run with no goal' : goalText(goal);
}

/**
 * The message after a run, reading what it is about first: the goal's title, then why the run
 * reads as it does (`explainLabel`'s sentence, the one the web board shows), then the chip
 * (`appraisal · distress −0.5`), and the run and session ids in the footer. None for a silent
 * run.
 */
export function runEndMessage(
  run: readonly TranscriptEvent[],
  goalTitle?: string,
): (SlackMessage & { readonly line: string }) | undefined {
  const reading = appraiseRun(run);
  const line = runEndContextLine(reading);
  if (line === undefined) return undefined;
  const about = runAbout(run, goalTitle);
  const reason = explainLabel(reading).sentence;
  const start = run.find((event) => event.type === 'run_start');
  return {
    line,
    text: slackText(`${about} · ${line}`),
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `*${slackText(about)}*\n${slackText(reason)}` },
      },
      { type: 'context', elements: [{ type: 'plain_text', text: line, emoji: false }] },
      idFooter(
        start?.type === 'run_start'
          ? [`run ${start.run_id}`, `session ${start.session_id}`]
          : [`run ${run[0]?.run_id ?? 'unknown'}`],
      ),
    ],
  };
}

/**
 * What a harness calls when a run finishes: reads the run's own events with the live readout
 * and posts exactly one message in the run's thread (what it was about, why it reads as it
 * does, and `appraisal · −0.5` or with the label's word), or nothing for a silent run. A Web API error is thrown, without the token.
 */
export async function postRunEndContextLine(
  client: WebClient,
  thread: RunThread,
  run: readonly TranscriptEvent[],
): Promise<RunEndPost> {
  const message = runEndMessage(run);
  if (message === undefined) return { state: 'silent' };
  const posted = await client.chat.postMessage({
    channel: thread.channel,
    thread_ts: thread.threadTs,
    text: message.text,
    blocks: message.blocks as never,
  });
  return { state: 'posted', text: message.line, ts: posted.ts };
}
