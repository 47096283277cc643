import { appraiseRun, type TranscriptEvent } from '@mecha/appraisal-core';
import type { webApi } from '@slack/bolt';

type WebClient = webApi.WebClient;

import { runEndContextLine } from './run-end-context-line.js';

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

/**
 * What a harness calls when a run finishes: reads the run's own events with the live readout
 * and posts exactly one context line in the run's thread (`appraisal · −0.5`, or with the
 * label's word), or nothing for a silent run. A Web API error is thrown, without the token.
 */
export async function postRunEndContextLine(
  client: WebClient,
  thread: RunThread,
  run: readonly TranscriptEvent[],
): Promise<RunEndPost> {
  const text = runEndLine(run);
  if (text === undefined) return { state: 'silent' };
  const posted = await client.chat.postMessage({
    channel: thread.channel,
    thread_ts: thread.threadTs,
    text,
    blocks: [{ type: 'context', elements: [{ type: 'plain_text', text, emoji: false }] }],
  });
  return { state: 'posted', text, ts: posted.ts };
}
