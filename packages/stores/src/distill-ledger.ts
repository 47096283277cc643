import type { SourceRead } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { contextOf, type MechaHome } from './home-context.js';
import { homeLayout, lockFileOf } from './home-layout.js';
import { appendHeld, readStore, renderRecords, underLock, wholeRecordTest } from './jsonl-store.js';
import { type DistilledRecord, distilledRecordSchema } from './schemas/distilled-record.js';
import { distilledReader } from './store-schemas.js';
import type { WriteFailure } from './write-failure.js';

/** Why a session needs no more distilling. */
export type DistilledOutcome = DistilledRecord['outcome'];

/**
 * The distill ledger as seen from inside the learning store's lock: read once when the lock was
 * taken, and marked through `mark`, so nothing can slip between the read and the mark.
 */
export interface DistillLedger {
  readonly read: SourceRead<DistilledRecord>;
  /**
   * Whether a session was distilled. `undefined` when the ledger could not be read: unknown is
   * never "no". A partial ledger answers from its intact lines (a damaged line may hide a mark,
   * and the graph's `(source, source_id)` key turns such a re-push into an update).
   */
  isDistilled(sessionId: string): boolean | undefined;
  /** How many `failed` tries the ledger holds for a session (0 when it cannot be read). */
  failures(sessionId: string): number;
  /**
   * Marks a session done with (pushed, skipped, too short, given up), or one failed try, durably,
   * before the lock is let go. `reason` goes with `failed` and `given_up`.
   */
  mark(
    sessionId: string,
    outcome: DistilledOutcome,
    reason?: string,
  ): Promise<E.Either<WriteFailure, void>>;
}

const ledgerFile = homeLayout.distilled;
const learningLock = lockFileOf(ledgerFile);
const isWholeMark = wholeRecordTest(distilledReader);

/**
 * Runs `work` with the distill ledger under the learning store's writer lock: read, decide,
 * push, mark, all while no other distill can read the ledger. Two concurrent distills therefore
 * never both push one session. Hold it for one session at a time; other learning writers wait.
 */
export async function withDistillLedger<T>(
  home: MechaHome,
  work: (ledger: DistillLedger) => Promise<T> | T,
): Promise<E.Either<WriteFailure, T>> {
  const context = contextOf(home);
  return underLock(context, learningLock, async () => {
    const read = readStore(context, ledgerFile, distilledReader);
    const marked = new Set<string>();
    const failed = new Map<string, number>();
    if (read.state !== 'unreadable') {
      for (const record of read.records) {
        if (record.outcome === 'failed') {
          failed.set(record.session_id, (failed.get(record.session_id) ?? 0) + 1);
        } else marked.add(record.session_id);
      }
    }
    const ledger: DistillLedger = {
      read,
      isDistilled: (sessionId) => (read.state === 'unreadable' ? undefined : marked.has(sessionId)),
      failures: (sessionId) => failed.get(sessionId) ?? 0,
      mark: async (sessionId, outcome, reason) => {
        const rendered = renderRecords(distilledRecordSchema, [
          {
            v: 1,
            at: context.clock().toISOString(),
            session_id: sessionId,
            outcome,
            ...(reason === undefined ? {} : { reason: reason.slice(0, 1_000) }),
          },
        ]);
        if (E.isLeft(rendered)) return rendered;
        const written = await appendHeld(context, {
          file: ledgerFile,
          lockFile: learningLock,
          manifestEntry: ledgerFile,
          payload: rendered.right,
          isWholeRecord: isWholeMark,
        });
        if (E.isRight(written)) {
          if (outcome === 'failed') failed.set(sessionId, (failed.get(sessionId) ?? 0) + 1);
          else marked.add(sessionId);
        }
        return written;
      },
    };
    return E.right(await work(ledger));
  });
}
