import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendLinesDurably, withLock } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import { z } from 'zod';

/** The Slack app's ledger, relative to the home: what it has posted, so nothing posts twice. */
export const slackLedgerFile = 'slack/posted.jsonl';
/** The lock over the ledger: one per folder, as every store in the home has. */
export const slackLockFile = 'slack/.lock';

const at = z.iso.datetime({ offset: true });
const id = z.string().min(1).max(200);

/**
 * One ledger line. `watch_from`: the watcher's first start; runs and drafts from before it are
 * not posted. `thread`: the message a session's lines are threaded under. `run_end` and
 * `draft`: a claim (`posting`) written before the Web API call, then what came of it. A claim
 * with no outcome (a crash mid-post) is never posted again: a line is posted at most once.
 */
export const slackLedgerEntrySchema = z.discriminatedUnion('kind', [
  z.object({ v: z.literal(1), kind: z.literal('watch_from'), at }),
  z.object({
    v: z.literal(1),
    kind: z.literal('thread'),
    at,
    session_id: id,
    channel: id,
    ts: id,
  }),
  z.object({
    v: z.literal(1),
    kind: z.literal('run_end'),
    at,
    session_id: id,
    run_id: id,
    state: z.enum(['posting', 'posted', 'silent', 'failed']),
    channel: id.optional(),
    ts: id.optional(),
    text: z.string().max(200).optional(),
    error: z.string().max(500).optional(),
  }),
  z.object({
    v: z.literal(1),
    kind: z.literal('draft'),
    at,
    draft_id: id,
    state: z.enum(['posting', 'posted', 'failed']),
    channel: id.optional(),
    ts: id.optional(),
    error: z.string().max(500).optional(),
  }),
]);
/** See {@link slackLedgerEntrySchema}. */
export type SlackLedgerEntry = z.infer<typeof slackLedgerEntrySchema>;

/** The ledger folded: the newest state of each run and draft, and each session's thread. */
export interface SlackLedger {
  readonly watchFrom: string | undefined;
  readonly threads: ReadonlyMap<string, { readonly channel: string; readonly ts: string }>;
  /** By `session_id/run_id`. */
  readonly runs: ReadonlyMap<string, SlackLedgerEntry & { readonly kind: 'run_end' }>;
  readonly drafts: ReadonlyMap<string, SlackLedgerEntry & { readonly kind: 'draft' }>;
}

/** The key a run has in the ledger. */
export const runKey = (sessionId: string, runId: string): string => `${sessionId}/${runId}`;

/**
 * Reads the ledger. A torn last line (a crash mid-append) is ignored; any other damaged line
 * makes the ledger unreadable, because posting past a ledger that cannot be read would post twice.
 */
export function readSlackLedger(homePath: string): E.Either<string, SlackLedger> {
  const path = join(homePath, slackLedgerFile);
  const ledger = {
    watchFrom: undefined as string | undefined,
    threads: new Map<string, { channel: string; ts: string }>(),
    runs: new Map<string, SlackLedgerEntry & { kind: 'run_end' }>(),
    drafts: new Map<string, SlackLedgerEntry & { kind: 'draft' }>(),
  };
  if (!existsSync(path)) return E.right(ledger);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return E.left(`${slackLedgerFile} could not be read: ${(error as Error).message}`);
  }
  const lines = text.split('\n');
  const lastTerminated = text.endsWith('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    if (line.trim() === '') continue;
    const unterminated = index === lines.length - 1 && !lastTerminated;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (unterminated) break;
      return E.left(`${slackLedgerFile}:${index + 1} is not JSON`);
    }
    const parsed = slackLedgerEntrySchema.safeParse(value);
    if (!parsed.success) {
      if (unterminated) break;
      return E.left(`${slackLedgerFile}:${index + 1} is not a ledger entry`);
    }
    const entry = parsed.data;
    switch (entry.kind) {
      case 'watch_from':
        ledger.watchFrom ??= entry.at;
        break;
      case 'thread':
        if (!ledger.threads.has(entry.session_id)) {
          ledger.threads.set(entry.session_id, { channel: entry.channel, ts: entry.ts });
        }
        break;
      case 'run_end':
        ledger.runs.set(runKey(entry.session_id, entry.run_id), entry);
        break;
      case 'draft':
        ledger.drafts.set(entry.draft_id, entry);
        break;
    }
  }
  return E.right(ledger);
}

const isWholeEntry = (line: string): boolean => {
  try {
    return slackLedgerEntrySchema.safeParse(JSON.parse(line)).success;
  } catch {
    return false;
  }
};

/** Appends entries through the stores' one durable append; the caller holds the ledger's lock. */
function appendEntries(
  homePath: string,
  entries: readonly SlackLedgerEntry[],
): E.Either<string, void> {
  for (const entry of entries) {
    const checked = slackLedgerEntrySchema.safeParse(entry);
    if (!checked.success) return E.left(`refused a ledger entry: ${checked.error.message}`);
  }
  const written = appendLinesDurably(
    join(homePath, slackLedgerFile),
    Buffer.from(entries.map((entry) => `${JSON.stringify(entry)}\n`).join('')),
    isWholeEntry,
  );
  return E.isLeft(written) ? E.left(written.left.message) : E.right(undefined);
}

/**
 * Under the ledger's lock: reads the ledger, lets `decide` choose what to append from it, and
 * appends that. This is how a post is claimed without two watchers claiming the same run.
 */
export async function updateSlackLedger<T>(
  homePath: string,
  decide: (ledger: SlackLedger) => {
    readonly append: readonly SlackLedgerEntry[];
    readonly result: T;
  },
): Promise<E.Either<string, T>> {
  try {
    mkdirSync(join(homePath, 'slack'), { recursive: true });
  } catch (error) {
    return E.left(`the slack folder could not be made: ${(error as Error).message}`);
  }
  const held = await withLock(join(homePath, slackLockFile), () => {
    const ledger = readSlackLedger(homePath);
    if (E.isLeft(ledger)) return ledger;
    const { append, result } = decide(ledger.right);
    if (append.length === 0) return E.right(result);
    const written = appendEntries(homePath, append);
    return E.isLeft(written) ? written : E.right(result);
  });
  if (E.isLeft(held)) return E.left(held.left.message);
  return held.right;
}
