import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

/** A model file's identity: the sha256 of its bytes, with the size and mtime it was computed at. */
export interface ModelIdentity {
  readonly sha256: string;
  readonly bytes: number;
  readonly modifiedMs: number;
}

const cache = new Map<string, ModelIdentity>();

/**
 * Hashes a model file once per process and caches the result; a file whose size or mtime has
 * changed since is hashed again, so a replaced model never keeps an old identity.
 */
export async function modelIdentity(path: string): Promise<ModelIdentity> {
  const info = await stat(path);
  const cached = cache.get(path);
  if (cached && cached.bytes === info.size && cached.modifiedMs === info.mtimeMs) return cached;
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  const identity = { sha256: hash.digest('hex'), bytes: info.size, modifiedMs: info.mtimeMs };
  cache.set(path, identity);
  return identity;
}
