import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceRead } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import type { z } from 'zod';
import { withLock } from './advisory-lock.js';
import { appendLines, maxRecordBytes } from './append-lines.js';
import { homeLayout, lockFileOf } from './home-layout.js';
import { ensureListed, type ListedCache, readManifest, readMissingStore } from './home-manifest.js';
import { refuseMissingContext } from './missing-home.js';
import { describeFileError, readJsonlFile } from './read-jsonl-file.js';
import type { RecordValidator } from './record-validator.js';
import type { WriteFailure } from './write-failure.js';

/** A store the caller can read: its file (relative to the home) and its records with a status. */
export interface ReadableStore<R> {
  readonly file: string;
  read(): Promise<SourceRead<R>>;
}

/**
 * A JSONL store: read with a status, appended to under its lock. Every record is validated by
 * its schema before anything is written; a batch is written in one durable append.
 */
export interface AppendStore<R, W> extends ReadableStore<R> {
  append(records: readonly W[]): Promise<E.Either<WriteFailure, void>>;
}

/**
 * What every store of one home shares: where it is, the manifest cache, the lock timeout, and
 * the clock and id source that records are stamped with.
 */
export interface HomeContext {
  readonly path: string;
  readonly listed: ListedCache;
  readonly lockTimeoutMs: number;
  readonly clock: () => Date;
  readonly newId: (prefix: string) => string;
  /** Whether a write may make the home's folder; otherwise a missing home is refused. */
  readonly create: boolean;
}

/** A store's file, the validator its lines are read with, and the schema records are written by. */
export interface StoreDefinition<R, W> {
  readonly file: string;
  readonly reader: RecordValidator<R>;
  readonly writer: z.ZodType<unknown, W>;
}

/** Validates a batch for writing: every record as its schema outputs it, or the first refusal. */
export function parseRecords<O, W>(
  writer: z.ZodType<O, W>,
  records: readonly W[],
): E.Either<WriteFailure, O[]> {
  const parsed: O[] = [];
  for (let index = 0; index < records.length; index += 1) {
    const result = writer.safeParse(records[index]);
    if (!result.success) {
      const issue = result.error.issues[0];
      const path = issue?.path.map(String).join('.') ?? '';
      return E.left({
        kind: 'invalid_record',
        index,
        message: `record ${index} is refused: ${path === '' ? '' : `${path}: `}${issue?.message ?? 'invalid'}`,
      });
    }
    parsed.push(result.data);
  }
  return E.right(parsed);
}

function mebibytes(bytes: number, digits = 1): string {
  return `${(bytes / (1024 * 1024)).toFixed(digits)} MiB`;
}

/**
 * Validates a batch for writing and renders it as JSONL: every record, or the first refusal (a
 * record its schema refuses, or one longer than {@link maxRecordBytes} as a line).
 */
export function renderRecords<W>(
  writer: z.ZodType<unknown, W>,
  records: readonly W[],
): E.Either<WriteFailure, Buffer> {
  const parsed = parseRecords(writer, records);
  if (E.isLeft(parsed)) return parsed;
  const lines = parsed.right.map((record) => JSON.stringify(record));
  for (let index = 0; index < lines.length; index += 1) {
    const bytes = Buffer.byteLength(lines[index] as string);
    if (bytes > maxRecordBytes) {
      return E.left({
        kind: 'invalid_record',
        index,
        message: `record ${index} is refused: it is ${mebibytes(bytes)} as JSON; a record may be at most ${mebibytes(maxRecordBytes, 0)} (shorten its text, or keep the text elsewhere and record a pointer to it)`,
      });
    }
  }
  return E.right(Buffer.from(`${lines.join('\n')}\n`));
}

/** Whether a line is one whole valid record: an unterminated tail that should be kept. */
export function wholeRecordTest<R>(reader: RecordValidator<R>): (line: string) => boolean {
  return (line) => {
    try {
      return reader.validate(JSON.parse(line)) !== undefined;
    } catch {
      return false;
    }
  };
}

/**
 * Reads one store file of a home, treating a missing file by the manifest's word. A file the
 * manifest lists that holds no record is damage, not an empty store: a store's file is created
 * by its first record, so one that is empty now was truncated or emptied.
 */
export function readStore<R>(
  context: HomeContext,
  file: string,
  reader: RecordValidator<R>,
): SourceRead<R> {
  const read = readJsonlFile(join(context.path, file), file, reader);
  if (read.state === 'missing') return readMissingStore<R>(context.path, file);
  if (read.state === 'read' && read.records.length === 0) {
    const manifest = readManifest(context.path);
    if (manifest.state === 'read' && manifest.created.has(file)) {
      return {
        state: 'unreadable',
        reason: `${file} is empty, but ${homeLayout.manifest} lists it as created (a store's file is created by its first record): it was truncated or emptied`,
      };
    }
  }
  return read;
}

/** Where one append goes: the file, its lock, its manifest entry, and the rendered lines. */
export interface AppendTarget {
  readonly file: string;
  readonly lockFile: string;
  /** How the manifest names the store (the sessions folder for a transcript). */
  readonly manifestEntry: string;
  readonly payload: Buffer;
  readonly isWholeRecord: (line: string) => boolean;
  /**
   * For a file of a folder store (a transcript), which the manifest lists only as its folder:
   * whether this home recorded creating it before, and how to record that it now exists.
   */
  readonly known?: {
    /** The file, relative to the home, that records which such files were created. */
    readonly file: string;
    readonly recorded: () => boolean;
    readonly record: () => Promise<E.Either<WriteFailure, void>>;
  };
}

/**
 * Why appending to a missing file would start a new, empty history over one that vanished: the
 * manifest lists the store's file, or (for a transcript) the home recorded creating it.
 */
function vanishedRefusal(context: HomeContext, target: AppendTarget): WriteFailure | undefined {
  const path = join(context.path, target.file);
  let vanished: boolean;
  if (target.known !== undefined) vanished = target.known.recorded();
  else {
    const manifest = readManifest(context.path);
    vanished = manifest.state === 'read' && manifest.created.has(target.file);
  }
  if (!vanished) return undefined;
  const recordedIn = target.known === undefined ? homeLayout.manifest : target.known.file;
  return {
    kind: 'vanished',
    path,
    message: `${target.file} was created in this home and has vanished (${recordedIn} records it), so nothing was written: a new, empty file would hide the lost history. Restore it from a backup; or, to accept the loss and start again, remove its entry from ${recordedIn}`,
  };
}

/**
 * Appends rendered lines to a store file whose lock the caller already holds, then lists the
 * store in the manifest when its file was just created (or this handle has not checked yet).
 */
export async function appendHeld(
  context: HomeContext,
  target: AppendTarget,
): Promise<E.Either<WriteFailure, void>> {
  const path = join(context.path, target.file);
  if (!existsSync(path)) {
    const refusal = vanishedRefusal(context, target);
    if (refusal !== undefined) return E.left(refusal);
  }
  let created: boolean;
  try {
    created = appendLines(path, target.payload, target.isWholeRecord).created;
  } catch (error) {
    return E.left({ kind: 'io', path, message: `${target.file} ${describeFileError(error)}` });
  }
  if (created && target.known !== undefined) {
    const recorded = await target.known.record();
    if (E.isLeft(recorded)) {
      return E.left({
        ...recorded.left,
        message: `${target.file} was written, but recording it in ${target.known.file} failed (${recorded.left.message}): a later deletion of it would go unreported`,
      });
    }
  }
  if (!created && context.listed.has(target.manifestEntry)) return E.right(undefined);
  return ensureListed(context.path, target.manifestEntry, context.listed, context.lockTimeoutMs);
}

/** Runs `work` under a store's lock, with the home's lock timeout. */
export async function underLock<T>(
  context: HomeContext,
  lockFile: string,
  work: () => Promise<E.Either<WriteFailure, T>> | E.Either<WriteFailure, T>,
): Promise<E.Either<WriteFailure, T>> {
  const present = refuseMissingContext(context);
  if (E.isLeft(present)) return present;
  return E.flatten(
    await withLock(join(context.path, lockFile), work, { timeoutMs: context.lockTimeoutMs }),
  );
}

/** Appends rendered lines to a store file under its lock (see {@link appendHeld}). */
export function appendUnderLock(
  context: HomeContext,
  target: AppendTarget,
): Promise<E.Either<WriteFailure, void>> {
  return underLock(context, target.lockFile, () => appendHeld(context, target));
}

/** Builds the reader and writer of one JSONL store of a home. */
export function jsonlStore<R, W>(
  context: HomeContext,
  definition: StoreDefinition<R, W>,
): AppendStore<R, W> {
  const isWholeRecord = wholeRecordTest(definition.reader);
  return {
    file: definition.file,
    read: async () => readStore(context, definition.file, definition.reader),
    append: async (records) => {
      if (records.length === 0) return E.right(undefined);
      const rendered = renderRecords(definition.writer, records);
      if (E.isLeft(rendered)) return rendered;
      return appendUnderLock(context, {
        file: definition.file,
        lockFile: lockFileOf(definition.file),
        manifestEntry: definition.file,
        payload: rendered.right,
        isWholeRecord,
      });
    },
  };
}
