import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { SourceRead } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { withLock } from './advisory-lock.js';
import { syncDirectory } from './append-lines.js';
import { homeLayout, manifestEntries } from './home-layout.js';
import { describeFileError } from './read-jsonl-file.js';
import { manifestSchema } from './schemas/manifest.js';
import type { WriteFailure } from './write-failure.js';

/** What the manifest says: nothing (no file), the stores created, or why it could not be read. */
export type ManifestRead =
  | { readonly state: 'absent' }
  | { readonly state: 'read'; readonly created: ReadonlySet<string> }
  | { readonly state: 'unreadable'; readonly reason: string };

/** Reads `manifest.json`. Never throws. */
export function readManifest(home: string): ManifestRead {
  let text: string;
  try {
    text = readFileSync(join(home, homeLayout.manifest), 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { state: 'absent' };
    return { state: 'unreadable', reason: `${homeLayout.manifest} ${describeFileError(error)}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { state: 'unreadable', reason: `${homeLayout.manifest} is not JSON` };
  }
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success) {
    return { state: 'unreadable', reason: `${homeLayout.manifest} is not a manifest` };
  }
  return { state: 'read', created: new Set(parsed.data.created) };
}

/** The manifest entries whose store exists on disk now (adopting a home made without one). */
function presentEntries(home: string): string[] {
  return manifestEntries.filter((entry) => existsSync(join(home, entry)));
}

/**
 * How to read a store whose file is missing. Listed in the manifest: it existed and vanished,
 * so it is unreadable. Not listed: never written, an empty read. With no manifest in a home that
 * holds other stores, or an unreadable manifest, the two cannot be told apart: unreadable.
 */
export function readMissingStore<T>(home: string, entry: string): SourceRead<T> {
  const manifest = readManifest(home);
  switch (manifest.state) {
    case 'read':
      return manifest.created.has(entry)
        ? {
            state: 'unreadable',
            reason: `${entry} was created in this home (${homeLayout.manifest} lists it) and has vanished`,
          }
        : { state: 'read', records: [] };
    case 'unreadable':
      return {
        state: 'unreadable',
        reason: `${entry} is missing and ${manifest.reason}, so a store never written cannot be told from one that vanished`,
      };
    default:
      return presentEntries(home).length === 0
        ? { state: 'read', records: [] }
        : {
            state: 'unreadable',
            reason: `${entry} is missing and this home holds stores but no ${homeLayout.manifest}, so a store never written cannot be told from one that vanished`,
          };
  }
}

/** Writes a file whole and durably: a temporary file, fsync, rename over, fsync the folder. */
export function writeFileAtomically(path: string, folder: string, text: string): void {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Nothing to clean up.
    }
    throw error;
  }
  syncDirectory(folder);
}

/** The manifest entries one home handle already knows are listed, so writers ask once. */
export type ListedCache = Set<string>;

/**
 * Makes sure the manifest lists `entry`, under the manifest's own lock, rewriting it
 * atomically. A home without a manifest (or with a damaged one) gets a new one listing every
 * store present now. Stores call this after creating a store's file.
 */
export async function ensureListed(
  home: string,
  entry: string,
  cache: ListedCache,
  timeoutMs: number,
): Promise<E.Either<WriteFailure, void>> {
  if (cache.has(entry)) return E.right(undefined);
  const path = join(home, homeLayout.manifest);
  const done = await withLock(
    join(home, 'manifest.lock'),
    (): E.Either<WriteFailure, void> => {
      try {
        const manifest = readManifest(home);
        const created = new Set(
          manifest.state === 'read' ? manifest.created : presentEntries(home),
        );
        if (manifest.state === 'read' && created.has(entry)) {
          for (const listed of created) cache.add(listed);
          return E.right(undefined);
        }
        created.add(entry);
        mkdirSync(home, { recursive: true });
        const text = `${JSON.stringify({ v: 1, created: [...created].sort() })}\n`;
        writeFileAtomically(path, home, text);
        for (const listed of created) cache.add(listed);
        return E.right(undefined);
      } catch (error) {
        return E.left({
          kind: 'io',
          path,
          message: `${homeLayout.manifest} ${describeFileError(error)}`,
        });
      }
    },
    { timeoutMs },
  );
  return E.flatten(done);
}
