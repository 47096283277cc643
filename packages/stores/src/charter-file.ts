import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceRead } from '@mecha/appraisal-core';
import {
  type Charter,
  type CharterLine,
  parseCharter,
  stringifyCharter,
  validateCharter,
} from '@mecha/charter';
import * as E from 'fp-ts/lib/Either.js';
import { withLock } from './advisory-lock.js';
import { homeLayout } from './home-layout.js';
import { ensureListed, readMissingStore, writeFileAtomically } from './home-manifest.js';
import type { HomeContext } from './jsonl-store.js';
import { refuseMissingContext } from './missing-home.js';
import { describeFileError } from './read-jsonl-file.js';
import type { WriteFailure } from './write-failure.js';

/** The owner's charter as read from `charter.toml`: the lines, or why they could not be read. */
export type CharterRead =
  | { readonly state: 'read'; readonly charter: Charter }
  | { readonly state: 'unreadable'; readonly reason: string };

/**
 * Reads `charter.toml` with `@mecha/charter`. A home that never had a charter reads as an
 * empty one; a charter that vanished, or that does not parse, is unreadable with the reason.
 */
export function readCharterFile(context: HomeContext): CharterRead {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(context.path, homeLayout.charter));
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') {
      return { state: 'unreadable', reason: `${homeLayout.charter} ${describeFileError(error)}` };
    }
    const missing = readMissingStore<never>(context.path, homeLayout.charter);
    return missing.state === 'unreadable' ? missing : { state: 'read', charter: [] };
  }
  if (!isUtf8(bytes)) {
    return { state: 'unreadable', reason: `${homeLayout.charter} is not valid UTF-8` };
  }
  const parsed = parseCharter(bytes.toString('utf8'));
  if (E.isLeft(parsed)) {
    return {
      state: 'unreadable',
      reason: `${homeLayout.charter}: ${parsed.left.map((issue) => issue.message).join('; ')}`,
    };
  }
  return { state: 'read', charter: parsed.right };
}

/** The charter as the appraisal core's port answers it: lines in rank order, or unreadable. */
export function charterLines(read: CharterRead): SourceRead<CharterLine> {
  return read.state === 'unreadable' ? read : { state: 'read', records: read.charter };
}

/** What an edit under the lock came to: the charter written, or why nothing was. */
export type CharterFileEdit =
  | { readonly state: 'edited'; readonly charter: Charter }
  | { readonly state: 'unreadable'; readonly reason: string }
  | { readonly state: 'rejected'; readonly message: string }
  | { readonly state: 'not_written'; readonly failure: WriteFailure };

function invalidCharter(charter: Charter): E.Either<WriteFailure, Charter> {
  const checked = validateCharter(charter);
  return E.isLeft(checked)
    ? E.left({
        kind: 'invalid_record',
        index: 0,
        message: checked.left.map((issue) => issue.message).join('; '),
      })
    : E.right(checked.right);
}

function writeLocked(context: HomeContext, charter: Charter): E.Either<WriteFailure, void> {
  const path = join(context.path, homeLayout.charter);
  try {
    writeFileAtomically(path, context.path, stringifyCharter(charter));
    return E.right(undefined);
  } catch (error) {
    return E.left({
      kind: 'io',
      path,
      message: `${homeLayout.charter} ${describeFileError(error)}`,
    });
  }
}

const charterLock = (context: HomeContext) => join(context.path, `${homeLayout.charter}.lock`);

/**
 * Writes `charter.toml` whole and atomically under the charter's lock. Only a person edits a
 * charter: call this from an owner's surface, never from a run. An invalid charter is refused.
 */
export async function writeCharterFile(
  context: HomeContext,
  charter: Charter,
): Promise<E.Either<WriteFailure, void>> {
  const checked = invalidCharter(charter);
  if (E.isLeft(checked)) return checked;
  const present = refuseMissingContext(context);
  if (E.isLeft(present)) return present;
  const written = await withLock(charterLock(context), () => writeLocked(context, checked.right), {
    timeoutMs: context.lockTimeoutMs,
  });
  if (E.isLeft(written) || E.isLeft(written.right)) return E.flatten(written);
  return ensureListed(context.path, homeLayout.charter, context.listed, context.lockTimeoutMs);
}

/**
 * Reads `charter.toml`, applies `edit` and writes the result, all under the charter's lock, so
 * that two edits from two surfaces never lose one another. Nothing is written when the charter
 * cannot be read, the edit is rejected, or its result is invalid.
 */
export async function editCharterFile(
  context: HomeContext,
  edit: (charter: Charter) => E.Either<{ readonly message: string }, Charter>,
): Promise<CharterFileEdit> {
  const present = refuseMissingContext(context);
  if (E.isLeft(present)) return { state: 'not_written', failure: present.left };
  const locked = await withLock(
    charterLock(context),
    (): CharterFileEdit => {
      const read = readCharterFile(context);
      if (read.state === 'unreadable') return read;
      const edited = edit(read.charter);
      if (E.isLeft(edited)) return { state: 'rejected', message: edited.left.message };
      const checked = invalidCharter(edited.right);
      if (E.isLeft(checked)) return { state: 'not_written', failure: checked.left };
      const written = writeLocked(context, checked.right);
      return E.isLeft(written)
        ? { state: 'not_written', failure: written.left }
        : { state: 'edited', charter: checked.right };
    },
    { timeoutMs: context.lockTimeoutMs },
  );
  if (E.isLeft(locked)) return { state: 'not_written', failure: locked.left };
  if (locked.right.state !== 'edited') return locked.right;
  const listed = await ensureListed(
    context.path,
    homeLayout.charter,
    context.listed,
    context.lockTimeoutMs,
  );
  return E.isLeft(listed) ? { state: 'not_written', failure: listed.left } : locked.right;
}
