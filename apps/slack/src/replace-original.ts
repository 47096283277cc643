import type { webApi } from '@slack/bolt';
import type { SlackMessage } from './slack-messages.js';

/** Where a message an act answers lives: a channel message, or one only its reader sees. */
export interface MessageOrigin {
  readonly channel: string | undefined;
  /** Absent for an ephemeral message, which only its `responseUrl` can replace. */
  readonly ts: string | undefined;
  readonly responseUrl: string | undefined;
}

/**
 * Replaces the message an act was taken on with what happened: `chat.update` for a channel
 * message, the interaction's `response_url` with `replace_original` for an ephemeral one
 * (which `chat.update` cannot reach). Resolves false when neither was possible or Slack
 * refused, so the caller can say so.
 */
export async function replaceOriginal(
  client: webApi.WebClient,
  origin: MessageOrigin,
  message: SlackMessage,
): Promise<boolean> {
  if (origin.channel !== undefined && origin.ts !== undefined) {
    const updated = await client.chat.update({
      channel: origin.channel,
      ts: origin.ts,
      text: message.text,
      blocks: message.blocks as never,
    });
    return updated.ok === true;
  }
  if (origin.responseUrl === undefined) return false;
  const answer = await fetch(origin.responseUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ replace_original: true, text: message.text, blocks: message.blocks }),
  });
  await answer.arrayBuffer();
  return answer.ok;
}
