import { realpathSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import type { CompletionModel, CompletionRequest } from './completion-model.js';
import type { DevicePriority, DeviceScheduler, ScheduledResult } from './device-scheduler.js';
import { type ModelEndpoint, type ModelServerHealth, readModelEndpoint } from './model-endpoint.js';
import type { ModelIdentity } from './model-identity.js';
import { wireRequest } from './model-server.js';

/** The machine's served model as a device scheduler: every call goes to the serving process. */
export interface ServedModel extends DeviceScheduler {
  /** The server this client talks to: the marker that the model was not loaded here. */
  readonly endpoint: ModelEndpoint;
  health(): Promise<ModelServerHealth>;
}

/** Sends one request; answers the response (its status checked by the caller). */
function send(
  endpoint: ModelEndpoint,
  method: 'GET' | 'POST',
  path: string,
  payload: unknown,
  signal?: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const text = payload === undefined ? '' : JSON.stringify(payload);
    const call = httpRequest(`${endpoint.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${endpoint.token}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      },
      ...(signal ? { signal } : {}),
    });
    call.once('response', resolve);
    call.once('error', reject);
    call.end(text);
  });
}

async function json<T>(response: IncomingMessage): Promise<T> {
  let text = '';
  for await (const chunk of response) text += chunk;
  const value = JSON.parse(text) as T & { error?: string };
  if ((response.statusCode ?? 500) >= 400) {
    throw new Error(`model server: ${value.error ?? response.statusCode}`);
  }
  return value;
}

const cancelled = (preempted: boolean): ScheduledResult => ({
  text: '',
  stopReason: 'aborted',
  tokens: { prompt: 0, completion: 0 },
  timings: { loadMs: 0, promptMs: 0, generationMs: 0 },
  preempted,
});

/**
 * Reads the completion's lines as they come: `{ id }`, `{ tokens }` (passed to `onToken`) and
 * `{ text }` (passed to `onText`), then `{ result }` or `{ error }`. Only what the request has a
 * hook for is streamed. The signal aborting disconnects, which cancels the completion on the
 * server at its next token; the caller gets an `aborted` result at once.
 */
async function completeRemote(
  endpoint: ModelEndpoint,
  home: string,
  request: CompletionRequest,
  priority: DevicePriority,
): Promise<ScheduledResult> {
  const { signal, onToken, onText } = request;
  if (signal?.aborted) return cancelled(false);
  const stream = { tokens: onToken !== undefined, text: onText !== undefined };
  const payload = { request: wireRequest(request), priority, home, stream };
  try {
    const response = await send(endpoint, 'POST', '/complete', payload, signal);
    let buffered = '';
    for await (const chunk of response) {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const value = JSON.parse(line) as {
          tokens?: number;
          text?: string;
          result?: ScheduledResult;
          error?: string;
        };
        if (value.tokens !== undefined) onToken?.(value.tokens);
        if (value.text !== undefined) onText?.(value.text);
        if (value.result) return value.result;
        if (value.error !== undefined) throw new Error(`model server: ${value.error}`);
      }
    }
    throw new Error(`model server: process ${endpoint.pid} ended the answer before its result`);
  } catch (error) {
    if (signal?.aborted) return cancelled(false);
    throw error;
  }
}

/**
 * Connects to the live model server whose endpoint file is in `directory` (the device lease's
 * folder): refused as `unreachable` when there is none, its process has died (a stale file), it
 * does not answer with the file's token, or it holds another GGUF than `modelPath` (when given).
 */
export async function connectModelServer(options: {
  readonly directory: string;
  /** Where this process's requests come from (the home), so the server can say. */
  readonly home: string;
  /** The GGUF this process would load; a server holding another one is not used. */
  readonly modelPath?: string;
}): Promise<Either<Refusal<'unreachable'>, ServedModel>> {
  const endpoint = readModelEndpoint(options.directory);
  if (!endpoint) return left(refusal('unreachable', 'no live model server on this machine'));
  let health: ModelServerHealth;
  try {
    health = await json<ModelServerHealth>(await send(endpoint, 'GET', '/health', undefined));
  } catch (error) {
    return left(
      refusal(
        'unreachable',
        `the model server of process ${endpoint.pid} does not answer: ${(error as Error).message}`,
      ),
    );
  }
  const wanted = options.modelPath === undefined ? undefined : realPath(options.modelPath);
  if (wanted !== undefined && wanted !== health.modelPath) {
    return left(
      refusal(
        'unreachable',
        `the model server of process ${endpoint.pid} holds ${health.modelPath}, not ${wanted}`,
      ),
    );
  }
  return right(servedModel(endpoint, options.home));
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function servedModel(endpoint: ModelEndpoint, home: string): ServedModel {
  const post = async <T>(path: string, payload: Record<string, unknown>) =>
    json<T>(await send(endpoint, 'POST', path, { ...payload, home }));
  const waiting = { foreground: 0, background: 0 };
  let running: DevicePriority | undefined;
  const complete = async (request: CompletionRequest, priority: DevicePriority) => {
    waiting[priority] += 1;
    running = priority;
    try {
      return await completeRemote(endpoint, home, request, priority);
    } finally {
      waiting[priority] -= 1;
      running = undefined;
    }
  };
  const embed = async (texts: readonly string[], priority: DevicePriority) =>
    (await post<{ vectors: number[][] }>('/embed', { texts, priority })).vectors;
  const at = (priority: DevicePriority): CompletionModel => ({
    identity: () => post<ModelIdentity>('/identity', {}),
    complete: (request) => complete(request, priority),
    countTokens: async (text) => (await post<{ tokens: number }>('/count', { text })).tokens,
    contextSize: async () => (await post<{ contextSize: number }>('/context', {})).contextSize,
    embed: (texts) => embed(texts, priority),
    dispose: async () => {},
  });
  return {
    endpoint,
    complete,
    embed,
    at,
    health: async () => json<ModelServerHealth>(await send(endpoint, 'GET', '/health', undefined)),
    running: () => running,
    waiting: () => ({ ...waiting }),
    // The model belongs to the server: nothing to free here.
    dispose: async () => {},
  };
}
