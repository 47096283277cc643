import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One Web API call the app made: the method, its parameters, and the token it carried. */
export interface FakeCall {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly authorization: string | undefined;
}

/** A running fake: its base URL (`…/api/`), every call so far, and a wait for the next one. */
export interface FakeSlackApi {
  readonly url: string;
  readonly calls: FakeCall[];
  /** Resolves with the first call (already made or still to come) that `match` accepts. */
  waitFor(match: (call: FakeCall) => boolean, timeoutMs?: number): Promise<FakeCall>;
  /** Makes the next `count` calls of `method` answer `{ ok: false, error }`. */
  failNext(method: string, error: string, count?: number): void;
  /**
   * Makes every call of `method` answer `body`, or what `body` returns for its parameters
   * (undefined: the usual answer), until `answer` is called again with undefined.
   */
  answer(
    method: string,
    body:
      | Record<string, unknown>
      | ((params: Record<string, unknown>) => Record<string, unknown> | undefined)
      | undefined,
  ): void;
  /** Holds every call of `method` unanswered until the returned release is called. */
  hold(method: string): () => void;
  /** A `response_url` for an interaction: posts to it are recorded as calls of `response_url`. */
  responseUrl(id: string): string;
  close(): Promise<void>;
}

const tryJson = (value: string): unknown => {
  if (!/^[[{]/.test(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
};

/**
 * A local stand-in for Slack's Web API, since the real one cannot be reached here: a loopback
 * server that records every call and answers as Slack would (`auth.test` for Bolt's start,
 * `chat.postMessage` with a fresh `ts`, `chat.update`, `conversations.info` (the bot is a
 * member), `conversations.open` (a DM), posts to an interaction's `response_url`, and
 * `{ ok: true }` for the rest). A test can make a method fail, answer otherwise, or hang.
 */
export async function startFakeSlackApi(): Promise<FakeSlackApi> {
  const calls: FakeCall[] = [];
  const waiters = new Set<() => void>();
  const failures = new Map<string, { error: string; count: number }>();
  const answers = new Map<
    string,
    | Record<string, unknown>
    | ((params: Record<string, unknown>) => Record<string, unknown> | undefined)
  >();
  const held = new Map<string, (() => void)[]>();
  const holding = new Set<string>();
  let seq = 100;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = (request.url ?? '').split('?')[0] ?? '';
      const method = path.startsWith('/response/') ? 'response_url' : path.replace(/^\/api\//, '');
      const params: Record<string, unknown> = {};
      if (request.headers['content-type']?.includes('application/json')) {
        Object.assign(params, raw === '' ? {} : JSON.parse(raw));
      } else {
        for (const [key, value] of new URLSearchParams(raw)) params[key] = tryJson(value);
      }
      if (method === 'response_url') params.response_url = path;
      calls.push({ method, params, authorization: request.headers.authorization });
      for (const wake of waiters) wake();
      const failure = failures.get(method);
      const given = answers.get(method);
      const fixed = typeof given === 'function' ? given(params) : given;
      let body: Record<string, unknown>;
      if (failure !== undefined && failure.count > 0) {
        failure.count -= 1;
        body = { ok: false, error: failure.error };
      } else if (fixed !== undefined) {
        body = fixed;
      } else if (method === 'chat.update') {
        body = { ok: true, channel: params.channel, ts: params.ts };
      } else if (method === 'conversations.info') {
        body = { ok: true, channel: { id: params.channel, is_member: true, name: 'mecha' } };
      } else if (method === 'conversations.open') {
        body = { ok: true, channel: { id: 'D0OWNERDM' } };
      } else if (method === 'auth.test') {
        body = {
          ok: true,
          user_id: 'UBOT0001',
          bot_id: 'BBOT0001',
          team_id: 'T0001',
          user: 'mecha',
        };
      } else if (method === 'chat.postMessage') {
        seq += 1;
        body = { ok: true, channel: params.channel, ts: `1790000000.000${seq}` };
      } else if (method === 'chat.postEphemeral') {
        body = { ok: true, message_ts: '1790000000.999999' };
      } else if (method === 'views.open') {
        body = { ok: true, view: { id: 'V0001' } };
      } else body = { ok: true };
      const send = () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(method === 'response_url' ? 'ok' : JSON.stringify(body));
      };
      if (holding.has(method)) held.set(method, [...(held.get(method) ?? []), send]);
      else send();
    });
  });
  // The app's client keeps connections alive; on a loaded machine a gap between calls can
  // outlast Node's 5 s default, and a socket closed under a reused connection fails a call.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/`,
    calls,
    waitFor(match, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = calls.find(match);
          if (found === undefined) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no matching Web API call in ${timeoutMs} ms; calls: ${calls.map((call) => call.method).join(', ')}`,
            ),
          );
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    failNext(method, error, count = 1) {
      failures.set(method, { error, count });
    },
    answer(method, body) {
      if (body === undefined) answers.delete(method);
      else answers.set(method, body);
    },
    hold(method) {
      holding.add(method);
      return () => {
        holding.delete(method);
        for (const send of held.get(method) ?? []) send();
        held.delete(method);
      };
    },
    responseUrl: (id) => `http://127.0.0.1:${port}/response/${id}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
