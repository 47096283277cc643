import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { left, refusal, right } from '@mecha/errors';
import type { MechaHome } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import { z } from 'zod';
import type { HookImport, HookRefusal } from './import-from-hook.js';
import { importHistory } from './import-history.js';
import { readLedgerEntry } from './import-ledger.js';

/** The notification types mecha imports on (Codex's `notify` emits only this one so far). */
export const codexNotifyTypes = ['agent-turn-complete'] as const;

/**
 * The fields of Codex's `notify` argument this reads: `type` and `thread-id` (the session's id,
 * `session_meta.id`, which ends the rollout's file name). It carries more (`turn-id`, `cwd`,
 * `input-messages`, `last-assistant-message`), left alone: the rollout is the record.
 */
const notifySchema = z.looseObject({
  type: z.string(),
  'thread-id': z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/),
});

const refused = (kind: HookRefusal['kind'], message: string): HookImport =>
  left(refusal(kind, message));

const byNameDescending = (a: string, b: string): number => (a < b ? 1 : a > b ? -1 : 0);

/**
 * The rollout of thread `threadId` under a Codex sessions folder (`YYYY/MM/DD/rollout-<time>-<id>.jsonl`),
 * newest day first, so the search stops at the session's own day; undefined when there is none.
 */
export function findCodexRollout(sessions: string, threadId: string): string | undefined {
  const suffix = `-${threadId}.jsonl`;
  const walk = (dir: string, depth: number): string | undefined => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    const names = entries.map((entry) => entry.name).sort(byNameDescending);
    const kinds = new Map(entries.map((entry) => [entry.name, entry]));
    for (const name of names) {
      const entry = kinds.get(name);
      if (entry?.isFile() === true && name.startsWith('rollout-') && name.endsWith(suffix)) {
        return join(dir, name);
      }
    }
    if (depth === 0) return undefined;
    for (const name of names) {
      if (kinds.get(name)?.isDirectory() !== true) continue;
      const found = walk(join(dir, name), depth - 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  // YYYY/MM/DD, and rollouts lying directly in the folder (older Codex).
  return walk(sessions, 3);
}

/**
 * Imports the new lines of the Codex rollout a `notify` argument names (its `thread-id`), from
 * the sessions folder `sessions` (`$CODEX_HOME/sessions`, see `defaultSourceFolder`), exactly as
 * `importHistory` would on that one file: incrementally, under the import lock, through the
 * ledger `mecha import codex` keeps, so neither imports a line twice. Codex runs `notify` when a
 * turn is over, so an answer still pending ends its run. Nothing is written when the argument
 * is not a notification mecha imports on, or no rollout of that thread is there.
 */
export async function importFromCodexNotify(
  home: MechaHome,
  argument: string,
  options: { readonly sessions: string; readonly now?: () => Date },
): Promise<HookImport> {
  let payload: unknown;
  try {
    payload = JSON.parse(argument);
  } catch {
    return refused('bad_request', 'the notify argument is not JSON');
  }
  const parsed = notifySchema.safeParse(payload);
  if (!parsed.success) {
    return refused(
      'bad_request',
      'the notify argument has no type and thread-id: not a Codex notification',
    );
  }
  const event = parsed.data.type;
  if (!(codexNotifyTypes as readonly string[]).includes(event)) {
    return refused(
      'bad_request',
      `${event} is not a notification mecha imports on (${codexNotifyTypes.join(', ')})`,
    );
  }
  const threadId = parsed.data['thread-id'];
  const rollout = findCodexRollout(options.sessions, threadId);
  if (rollout === undefined) {
    return refused('not_found', `there is no rollout of thread ${threadId} in ${options.sessions}`);
  }
  const result = await importHistory(home, {
    tool: 'codex',
    source: options.sessions,
    files: [rollout],
    turnEnded: true,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  if (E.isLeft(result)) return refused('not_written', result.left.message);
  const report = result.right;
  const skipped = report.skippedFiles[0];
  if (skipped !== undefined) return refused('not_written', `${rollout}: ${skipped.reason}`);
  const entry = readLedgerEntry(home.path, 'codex', rollout);
  return right({
    event,
    transcript: rollout,
    report,
    line: `${event}: ${report.lines.read} new lines, ${report.events} events written`,
    session: E.isRight(entry) ? (entry.right?.session_id ?? null) : null,
  });
}
