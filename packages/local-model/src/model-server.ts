import { randomBytes } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import type { CompletionModel, CompletionRequest } from './completion-model.js';
import type { DevicePriority, DeviceScheduler } from './device-scheduler.js';
import { localModelLoads } from './local-model.js';
import {
  type ModelEndpoint,
  type ModelServerHealth,
  modelEndpointPath,
  readModelEndpoint,
} from './model-endpoint.js';
import { releaseLock, takeLock } from './pid-lock.js';

// One process per machine holds the model and answers every other process over loopback HTTP.
// Each request names its priority and its home; completions go through the server's device
// scheduler (so a foreground request pre-empts a background generation there, and every call
// takes the machine's device lease), and answer as newline-delimited JSON: `{ id }` first, then,
// as the client asked (`stream: { tokens, text }`), `{ tokens }` at every generated token and
// `{ text }` with every piece of generated text as it is produced, then `{ result }` (or
// `{ error }`). A client that disconnects, or posts `{ id }` to /abort, cancels its completion at
// the next token.

/** What serving the model needs. */
export interface ModelServerOptions {
  /** The scheduler every request goes through (on the machine's device lease). */
  readonly scheduler: DeviceScheduler;
  /** The model itself: identity, token counts and context size (they need no turn). */
  readonly model: CompletionModel;
  /** The GGUF the model was loaded from. */
  readonly modelPath: string;
  /** The device lease's folder, where the endpoint file is written. */
  readonly directory: string;
}

/** A running model server. */
export interface ModelServer {
  readonly endpoint: ModelEndpoint;
  health(): ModelServerHealth;
  /** Stops listening, cancels what is in flight and removes the endpoint file. */
  close(): Promise<void>;
}

/** Who serves already, when serving is refused. */
export type ModelServeRefusal = Refusal<'refused'> & { readonly endpoint?: ModelEndpoint };

const wireFields = ['prompt', 'grammar', 'maxTokens', 'temperature', 'seed', 'repeatPenalty'];

/** The part of a completion request that crosses the wire (no signal, no callback). */
export function wireRequest(request: CompletionRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of wireFields) {
    const value = (request as unknown as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

async function body(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) text += chunk;
  const value = JSON.parse(text === '' ? '{}' : text) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('the body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/** What a completion's client asked to have streamed: token counts, the text, or both. */
function streamOf(value: unknown): { readonly tokens: boolean; readonly text: boolean } {
  if (typeof value !== 'object' || value === null) return { tokens: false, text: false };
  const asked = value as Record<string, unknown>;
  return { tokens: asked.tokens === true, text: asked.text === true };
}

const priorityOf = (value: unknown): DevicePriority =>
  value === 'background' ? 'background' : 'foreground';

function send(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(`${JSON.stringify(value)}\n`);
}

/** The routes of a model server, its counts and what is in flight. */
function modelRoutes(
  options: Pick<ModelServerOptions, 'scheduler' | 'model'>,
  token: string,
  modelPath: string,
) {
  const { scheduler, model } = options;
  const counts = { complete: 0, embed: 0, aborted: 0 };
  const homes: Record<string, number> = {};
  const inFlight = new Map<number, AbortController>();
  let nextId = 1;

  async function complete(input: Record<string, unknown>, response: ServerResponse) {
    const id = nextId++;
    const controller = new AbortController();
    inFlight.set(id, controller);
    // A client that goes away cancels its completion at the next token.
    response.once('close', () => controller.abort());
    response.writeHead(200, { 'content-type': 'application/x-ndjson' });
    response.write(`${JSON.stringify({ id })}\n`);
    const stream = streamOf(input.stream);
    const line = (value: unknown) => {
      if (!response.writableEnded && !response.destroyed)
        response.write(`${JSON.stringify(value)}\n`);
    };
    try {
      const result = await scheduler.complete(
        {
          ...(input.request as CompletionRequest),
          signal: controller.signal,
          ...(stream.tokens ? { onToken: (tokens: number) => line({ tokens }) } : {}),
          ...(stream.text ? { onText: (text: string) => line({ text }) } : {}),
        },
        priorityOf(input.priority),
      );
      counts.complete += 1;
      if (result.stopReason === 'aborted') counts.aborted += 1;
      response.end(`${JSON.stringify({ result })}\n`);
    } catch (error) {
      response.end(`${JSON.stringify({ error: String((error as Error).message ?? error) })}\n`);
    } finally {
      inFlight.delete(id);
    }
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.headers.authorization !== `Bearer ${token}`) {
      send(response, 401, { error: 'the token of the endpoint file is required' });
      return;
    }
    if (request.method === 'GET' && request.url === '/health') {
      send(response, 200, health());
      return;
    }
    if (request.method !== 'POST') {
      send(response, 404, { error: `no such route: ${request.method} ${request.url}` });
      return;
    }
    const input = await body(request);
    const home = typeof input.home === 'string' ? input.home : 'unnamed';
    homes[home] = (homes[home] ?? 0) + 1;
    switch (request.url) {
      case '/complete':
        return complete(input, response);
      case '/abort':
        inFlight.get(Number(input.id))?.abort();
        return send(response, 200, { aborting: inFlight.has(Number(input.id)) });
      case '/embed': {
        const vectors = await scheduler.embed(input.texts as string[], priorityOf(input.priority));
        counts.embed += 1;
        return send(response, 200, { vectors });
      }
      case '/identity':
        return send(response, 200, await model.identity());
      case '/count':
        return send(response, 200, {
          tokens: (await model.countTokens?.(String(input.text))) ?? null,
        });
      case '/context':
        return send(response, 200, { contextSize: (await model.contextSize?.()) ?? null });
      default:
        return send(response, 404, { error: `no such route: POST ${request.url}` });
    }
  }

  function health(): ModelServerHealth {
    return {
      pid: process.pid,
      modelPath,
      loads: localModelLoads(),
      requests: { complete: counts.complete, embed: counts.embed },
      homes: { ...homes },
      aborted: counts.aborted,
    };
  }

  return { route, health, inFlight };
}

/**
 * Serves `model` to every process on the machine: listens on a loopback port, then writes the
 * endpoint file (pid, address, a fresh token; mode 0600) in `directory`. Refused, naming the
 * holder, when a live process already serves; a file left by a dead process is replaced.
 */
export async function serveModel(
  options: ModelServerOptions,
): Promise<Either<ModelServeRefusal, ModelServer>> {
  const { directory } = options;
  mkdirSync(directory, { recursive: true });
  const before = readModelEndpoint(directory);
  if (before) return left({ ...serving(before), endpoint: before });
  const token = randomBytes(32).toString('hex');
  const modelPath = realpathSync(options.modelPath);
  const { route, health, inFlight } = modelRoutes(options, token, modelPath);
  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 400, { error: String((error as Error).message) });
      else response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const endpoint: ModelEndpoint = { pid: process.pid, url, token, modelPath };
  const file = modelEndpointPath(directory);
  const taken = takeLock(file, JSON.stringify({ url, token, modelPath }), 0o600);
  if (!taken.taken) {
    await new Promise((resolve) => server.close(resolve));
    const holder = readModelEndpoint(directory);
    return left({
      ...refusal('refused', `process ${taken.holder.pid} already serves the model on this machine`),
      ...(holder ? { endpoint: holder } : {}),
    });
  }
  return right({
    endpoint,
    health,
    async close() {
      releaseLock(file);
      for (const controller of inFlight.values()) controller.abort();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

function serving(endpoint: ModelEndpoint): Refusal<'refused'> {
  return refusal(
    'refused',
    `process ${endpoint.pid} already serves the model on this machine at ${endpoint.url}`,
  );
}
