import { request } from 'node:http';
import { slackSignature } from '../verify-slack-request.js';

/** A request as Slack would sign it: form-encoded, with the `v0` signature and timestamp. */
export interface SignedPost {
  readonly body: string;
  readonly timestamp?: number;
  readonly signature?: string;
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
}

/**
 * Posts a body signed with `secret` to the receiver, as Slack does; answers status and text.
 * Each post opens its own connection: a kept-alive socket the server has meanwhile closed
 * would fail the next post on a loaded machine.
 */
export function postSigned(
  port: number,
  secret: string,
  post: SignedPost,
): Promise<{ readonly status: number; readonly text: string }> {
  const timestamp = String(post.timestamp ?? Math.floor(Date.now() / 1000));
  const body = Buffer.from(post.body, 'utf8');
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: '127.0.0.1',
        port,
        path: '/slack/events',
        method: 'POST',
        agent: false,
        headers: {
          'content-type': post.contentType ?? 'application/x-www-form-urlencoded',
          'content-length': String(body.length),
          'x-slack-request-timestamp': timestamp,
          'x-slack-signature': post.signature ?? slackSignature(secret, timestamp, post.body),
          ...post.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The form body of an interaction: `payload=<json>`. */
export const interaction = (payload: unknown): string =>
  new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

/** A button tap on a message, as Slack sends it. */
export function buttonTap(options: {
  readonly user: string;
  readonly actionId: string;
  readonly value: string;
  readonly actionTs: string;
  readonly channel?: string;
  readonly messageTs?: string;
  /** Where Slack would take a reply to this tap (the fake's `responseUrl`). */
  readonly responseUrl?: string;
  /** A tap on a message only its reader sees (`/mecha tasks`, `/mecha drafts`). */
  readonly ephemeral?: boolean;
}): string {
  const channel = options.channel ?? 'C0CHANNEL';
  const messageTs = options.messageTs ?? '1790000000.000001';
  const ephemeral = options.ephemeral === true;
  return interaction({
    type: 'block_actions',
    team: { id: 'T0001' },
    user: { id: options.user, team_id: 'T0001' },
    api_app_id: 'A0001',
    token: 'legacy-verification-token',
    trigger_id: `trigger-${options.actionTs}`,
    channel: { id: channel, name: 'mecha' },
    container: {
      type: 'message',
      message_ts: messageTs,
      channel_id: channel,
      ...(ephemeral ? { is_ephemeral: true } : {}),
    },
    // Slack sends no message with a tap on an ephemeral message.
    ...(ephemeral ? {} : { message: { type: 'message', ts: messageTs, text: 'a task' } }),
    response_url: options.responseUrl ?? 'http://127.0.0.1:9/unused',
    actions: [
      {
        type: 'button',
        action_id: options.actionId,
        block_id: 'b',
        value: options.value,
        action_ts: options.actionTs,
        text: { type: 'plain_text', text: 'x' },
      },
    ],
  });
}

/** A slash command, as Slack sends it. */
export function slashCommand(options: {
  readonly user: string;
  readonly text: string;
  readonly trigger?: string;
  readonly responseUrl?: string;
}): string {
  return new URLSearchParams({
    token: 'legacy-verification-token',
    team_id: 'T0001',
    channel_id: 'C0CHANNEL',
    channel_name: 'mecha',
    user_id: options.user,
    user_name: 'someone',
    command: '/mecha',
    text: options.text,
    api_app_id: 'A0001',
    response_url: options.responseUrl ?? 'http://127.0.0.1:9/unused',
    trigger_id: options.trigger ?? `trigger-${Math.random()}`,
  }).toString();
}
