import { join } from 'node:path';
import { lockHolder } from './pid-lock.js';

// The machine's model server is found through one file: `model-server` in the device lease's
// folder, a pid lock (created exclusively, mode 0600) whose note is this endpoint as JSON. A file
// whose pid is dead is stale: the next server takes it over and a client ignores it.

/** Where a model server listens and what it expects of every request. */
export interface ModelEndpoint {
  /** The serving process. */
  readonly pid: number;
  /** `http://127.0.0.1:PORT`: loopback only. */
  readonly url: string;
  /** Sent as `authorization: Bearer TOKEN` with every request; only the file's owner can read it. */
  readonly token: string;
  /** The GGUF the server holds, as the server resolved it (a real path). */
  readonly modelPath: string;
}

/** The endpoint file of the machine's model server, in the device lease's folder. */
export const modelEndpointPath = (directory: string): string => join(directory, 'model-server');

/** The endpoint written in a lock note, or undefined when the note is not one. */
export function parseEndpoint(pid: number, note: string): ModelEndpoint | undefined {
  try {
    const value = JSON.parse(note) as Partial<ModelEndpoint>;
    if (typeof value.url !== 'string' || typeof value.token !== 'string') return undefined;
    if (typeof value.modelPath !== 'string') return undefined;
    return { pid, url: value.url, token: value.token, modelPath: value.modelPath };
  } catch {
    return undefined;
  }
}

/**
 * The endpoint of the live model server whose file is in `directory`, read from the file alone
 * (its pid alive); undefined when there is no file or its process has died.
 */
export function readModelEndpoint(directory: string): ModelEndpoint | undefined {
  const holder = lockHolder(modelEndpointPath(directory));
  return holder ? parseEndpoint(holder.pid, holder.note) : undefined;
}

/** What `GET /health` answers. */
export interface ModelServerHealth {
  readonly pid: number;
  readonly modelPath: string;
  /** Times this process has loaded a model: 1 for a server that loaded its model once. */
  readonly loads: number;
  /** Requests answered, by kind. */
  readonly requests: { readonly complete: number; readonly embed: number };
  /** Requests per home, as each request named its home (`unnamed` when it did not). */
  readonly homes: Readonly<Record<string, number>>;
  /** Completions that ended `aborted`: by the client (disconnect or abort message) or pre-empted. */
  readonly aborted: number;
}
