import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLeft } from '@mecha/errors';
import type { App, Receiver, ReceiverEvent } from '@slack/bolt';
import { type RequestRefusal, verifySlackRequest } from './verify-slack-request.js';

/** Where the receiver says what it refused or failed at; the token never reaches it. */
export type ReceiverLog = (line: string) => void;

/** The HTTP receiver's settings. */
export interface MechaReceiverOptions {
  readonly signingSecret: string;
  readonly port: number;
  readonly host: string;
  readonly log: ReceiverLog;
  /** Seconds since the epoch; the system clock by default (tests fix it). */
  readonly nowSeconds?: () => number;
}

/** What a request came to, for logs and tests: accepted, a repeat of an accepted one, or refused. */
export type Delivery =
  | { readonly kind: 'accepted'; readonly key: string | undefined }
  | { readonly kind: 'repeat'; readonly key: string }
  | { readonly kind: 'refused'; readonly refusal: RequestRefusal | 'too_large' | 'malformed' };

const bodyLimit = 1024 * 1024;
const keyMemoryMs = 60 * 60 * 1000;

/**
 * The id of what a delivery asks for, the same on each of Slack's retries of it: an
 * interaction's action and its timestamp, a slash command's trigger, an event's id.
 */
export function deliveryKey(body: Record<string, unknown>): string | undefined {
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value !== '' ? value : undefined;
  const user = body.user as { id?: unknown } | undefined;
  if (body.type === 'block_actions' && Array.isArray(body.actions)) {
    const action = body.actions[0] as { action_id?: unknown; action_ts?: unknown } | undefined;
    const actionId = text(action?.action_id);
    const actionTs = text(action?.action_ts);
    if (actionId !== undefined && actionTs !== undefined) {
      return `action:${text(user?.id) ?? ''}:${actionId}:${actionTs}`;
    }
  }
  if (body.type === 'view_submission') {
    const view = body.view as { id?: unknown; hash?: unknown } | undefined;
    const viewId = text(view?.id);
    if (viewId !== undefined) return `view:${viewId}:${text(view?.hash) ?? ''}`;
  }
  const trigger = text(body.trigger_id);
  if (typeof body.command === 'string' && trigger !== undefined) return `command:${trigger}`;
  const eventId = text(body.event_id);
  if (eventId !== undefined) return `event:${eventId}`;
  return undefined;
}

/** Past this, a sender still sending is cut off rather than read to the end to answer it. */
const drainLimit = 64 * bodyLimit;

/**
 * Reads a request's body; `undefined` when it is over {@link bodyLimit}. An oversized body is
 * read to its end (and dropped) before the answer, so the sender gets the 413 rather than a
 * connection reset mid-send; only a sender past {@link drainLimit} is cut off.
 */
function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > drainLimit) {
        request.destroy();
        resolve(undefined);
        return;
      }
      if (size > bodyLimit) {
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () =>
      resolve(size > bodyLimit ? undefined : Buffer.concat(chunks).toString('utf8')),
    );
    request.on('error', reject);
  });
}

function parseBody(rawBody: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType?.includes('application/json')) return JSON.parse(rawBody);
  const form = new URLSearchParams(rawBody);
  const payload = form.get('payload');
  if (payload !== null) return JSON.parse(payload);
  return Object.fromEntries(form);
}

const header = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The HTTP receiver `mecha slack` uses in place of Bolt's own: it checks the signature and the
 * timestamp window and refuses a replayed signature before Bolt sees anything, and answers a
 * repeat of a delivery it already accepted (Slack's retries carry the same action) without
 * running it again. Nothing reaches a listener from an unverified, stale or replayed request.
 */
export class MechaReceiver implements Receiver {
  private app: App | undefined;
  private server: Server | undefined;
  private readonly seenSignatures = new Map<string, number>();
  private readonly acceptedKeys = new Map<string, number>();
  private readonly listeners = new Set<(delivery: Delivery) => void>();

  constructor(private readonly options: MechaReceiverOptions) {}

  init(app: App): void {
    this.app = app;
  }

  /** Calls `listener` with what each request came to (after any listener work has run). */
  onDelivery(listener: (delivery: Delivery) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts listening; resolves with the port (useful with port 0). */
  start(): Promise<number> {
    const server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        this.options.log(`slack: a request failed: ${(error as Error).message}`);
        if (!response.headersSent) {
          response.writeHead(500);
          response.end();
        }
      });
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => {
        resolve((server.address() as AddressInfo).port);
      });
    });
  }

  stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private told(delivery: Delivery): void {
    for (const listener of this.listeners) listener(delivery);
  }

  private refuse(
    response: ServerResponse,
    status: number,
    refusal: RequestRefusal | 'too_large' | 'malformed',
  ): void {
    this.options.log(`slack: refused a request (${refusal.replace('_', ' ')})`);
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(`refused: ${refusal.replace('_', ' ')}\n`);
    this.told({ kind: 'refused', refusal });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'POST' || !path?.startsWith('/slack/')) {
      response.writeHead(404);
      response.end();
      return;
    }
    const rawBody = await readBody(request);
    if (rawBody === undefined) {
      response.setHeader('connection', 'close');
      return this.refuse(response, 413, 'too_large');
    }
    const nowSeconds = this.options.nowSeconds?.() ?? Math.floor(Date.now() / 1000);
    const verified = verifySlackRequest(
      this.options.signingSecret,
      {
        rawBody,
        signature: header(request, 'x-slack-signature'),
        timestamp: header(request, 'x-slack-request-timestamp'),
      },
      { nowSeconds, seen: this.seenSignatures },
    );
    if (isLeft(verified)) return this.refuse(response, 401, verified.left.reason);

    let body: Record<string, unknown>;
    try {
      body = parseBody(rawBody, header(request, 'content-type'));
    } catch {
      return this.refuse(response, 400, 'malformed');
    }
    if (body.ssl_check === '1' || body.ssl_check === 1) {
      response.writeHead(200);
      response.end();
      return;
    }
    if (body.type === 'url_verification') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ challenge: body.challenge }));
      return;
    }

    const key = deliveryKey(body);
    const nowMs = nowSeconds * 1000;
    for (const [known, at] of this.acceptedKeys) {
      if (nowMs - at > keyMemoryMs) this.acceptedKeys.delete(known);
    }
    if (key !== undefined && this.acceptedKeys.has(key)) {
      // A retry of a delivery already accepted: answered, never run twice.
      response.writeHead(200);
      response.end();
      this.told({ kind: 'repeat', key });
      return;
    }
    if (key !== undefined) this.acceptedKeys.set(key, nowMs);

    const retry = header(request, 'x-slack-retry-num');
    let answered = false;
    const answer = (reply: unknown) => {
      if (answered) return;
      answered = true;
      if (reply === undefined || reply === '') {
        response.writeHead(200);
        response.end();
      } else if (typeof reply === 'string') {
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(reply);
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(reply));
      }
    };
    const event: ReceiverEvent = {
      body,
      ...(retry === undefined ? {} : { retryNum: Number(retry) }),
      ...(header(request, 'x-slack-retry-reason') === undefined
        ? {}
        : { retryReason: header(request, 'x-slack-retry-reason') as string }),
      ack: async (reply?: unknown) => answer(reply),
    };
    try {
      await this.app?.processEvent(event);
    } catch (error) {
      this.options.log(`slack: a listener failed: ${(error as Error).message}`);
    } finally {
      answer(undefined);
      this.told({ kind: 'accepted', key });
    }
  }
}
