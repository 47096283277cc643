import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { idSchema } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { z } from 'zod';
import { withLock } from './advisory-lock.js';
import { appendLines } from './append-lines.js';
import { homeLayout } from './home-layout.js';
import { wholeRecordTest } from './jsonl-store.js';
import { describeFileError } from './read-jsonl-file.js';
import { recordValidator } from './record-validator.js';
import type { WriteFailure } from './write-failure.js';

/**
 * `sessions/known.log`: one line per transcript this home created, so that a transcript that
 * is later deleted is reported as vanished instead of disappearing without trace. JSON lines,
 * so a line torn by a crash is cut by the next append like any store's torn tail.
 */
export const knownSessionsFile = `${homeLayout.sessions}/known.log`;

const knownRecordSchema = z.strictObject({ v: z.literal(1), session_id: idSchema });
const knownReader = recordValidator(knownRecordSchema);
const isWholeRecord = wholeRecordTest(knownReader);

/**
 * The session ids this home recorded creating, or `undefined` when there is no record (a home
 * made before the file existed, or one whose file cannot be read: then nothing can be said).
 */
export function readKnownSessions(home: string): ReadonlySet<string> | undefined {
  let text: string;
  try {
    text = readFileSync(join(home, knownSessionsFile), 'utf8');
  } catch {
    return undefined;
  }
  const known = new Set<string>();
  const lines = text.split('\n');
  // The last piece is either empty or a line a crash cut short: only terminated lines count.
  for (let index = 0; index < lines.length - 1; index += 1) {
    const line = lines[index] as string;
    if (line === '') continue;
    try {
      const record = knownReader.validate(JSON.parse(line));
      if (record !== undefined) known.add(record.session_id);
    } catch {
      // A damaged line names no session.
    }
  }
  return known;
}

/**
 * Records that this home created the transcript of `sessionId`, under the file's own lock (the
 * caller holds the transcript's lock; nothing takes them in the other order).
 */
export async function recordKnownSession(
  home: string,
  sessionId: string,
  timeoutMs: number,
): Promise<E.Either<WriteFailure, void>> {
  const line = Buffer.from(`${JSON.stringify({ v: 1, session_id: sessionId })}\n`);
  const path = join(home, knownSessionsFile);
  const done = await withLock(
    `${path}.lock`,
    (): E.Either<WriteFailure, void> => {
      try {
        appendLines(path, line, isWholeRecord);
        return E.right(undefined);
      } catch (error) {
        return E.left({
          kind: 'io',
          path,
          message: `${knownSessionsFile} ${describeFileError(error)}`,
        });
      }
    },
    { timeoutMs },
  );
  return E.flatten(done);
}
