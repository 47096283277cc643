import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import type { MechaHome } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import { z } from 'zod';
import { type ImportReport, importHistory } from './import-history.js';
import { readLedgerEntry } from './import-ledger.js';

/** The Claude Code hook events mecha imports on. */
export const claudeCodeHookEvents = [
  'Stop',
  'SubagentStop',
  'SessionEnd',
  'UserPromptSubmit',
  'PreCompact',
] as const;

/** Events after which the person's turn is over: an answer left pending ends its run. */
const turnOver = new Set<string>(['Stop', 'SessionEnd', 'UserPromptSubmit']);

/** The fields of Claude Code's hook payload this reads (it carries more, left alone). */
const hookPayloadSchema = z.looseObject({
  hook_event_name: z.string(),
  transcript_path: z.string().min(1),
  session_id: z.string().optional(),
});

/** What importing on a hook did: the transcript's new lines imported. */
export interface HookImported {
  readonly event: string;
  readonly transcript: string;
  readonly report: ImportReport;
  readonly line: string;
  /** The mecha session the transcript is imported into; null while it holds nothing to import. */
  readonly session: string | null;
}

/**
 * Why nothing was imported: `bad_request` (not a hook payload mecha imports on), `not_found`
 * (no transcript there), `not_written` (the import itself failed or skipped the file).
 */
export type HookRefusal = Refusal<'bad_request' | 'not_found' | 'not_written'>;

/** What importing on a hook did, or why nothing was imported. */
export type HookImport = Either<HookRefusal, HookImported>;

const refused = (kind: HookRefusal['kind'], message: string): HookImport =>
  left(refusal(kind, message));

/**
 * Imports the new lines of the transcript a Claude Code hook names (`transcript_path` in the
 * payload it writes on the hook's stdin), incrementally and under the import lock, exactly as
 * `importHistory` would on that one file, so the hook and a later `mecha import claude-code`
 * share the ledger and never import a line twice. On `Stop`, `SessionEnd` and
 * `UserPromptSubmit` the turn is over, so an answer still pending ends its run. Nothing is
 * written when the payload is not one, or the transcript is not there.
 */
export async function importFromClaudeCodeHook(
  home: MechaHome,
  payloadText: string,
  options: { readonly now?: () => Date } = {},
): Promise<HookImport> {
  let payload: unknown;
  try {
    payload = JSON.parse(payloadText);
  } catch {
    return refused('bad_request', 'the hook payload on stdin is not JSON');
  }
  const parsed = hookPayloadSchema.safeParse(payload);
  if (!parsed.success) {
    return refused(
      'bad_request',
      'the hook payload has no hook_event_name and transcript_path: not a Claude Code hook payload',
    );
  }
  const event = parsed.data.hook_event_name;
  if (!(claudeCodeHookEvents as readonly string[]).includes(event)) {
    return refused(
      'bad_request',
      `${event} is not a hook mecha imports on (${claudeCodeHookEvents.join(', ')})`,
    );
  }
  const given = parsed.data.transcript_path;
  const expanded = given.startsWith('~/') ? join(homedir(), given.slice(2)) : given;
  if (!isAbsolute(expanded)) {
    return refused('bad_request', `transcript_path is not an absolute path: ${given}`);
  }
  const transcript = resolve(expanded);
  if (!existsSync(transcript) || !statSync(transcript).isFile()) {
    return refused('not_found', `there is no transcript at ${transcript}`);
  }
  const result = await importHistory(home, {
    tool: 'claude-code',
    source: dirname(transcript),
    files: [transcript],
    turnEnded: turnOver.has(event),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  if (E.isLeft(result)) return refused('not_written', result.left.message);
  const report = result.right;
  const skipped = report.skippedFiles[0];
  if (skipped !== undefined) return refused('not_written', `${transcript}: ${skipped.reason}`);
  const entry = readLedgerEntry(home.path, 'claude-code', transcript);
  return right({
    event,
    transcript,
    report,
    line: `${event}: ${report.lines.read} new lines, ${report.events} events written`,
    session: E.isRight(entry) ? (entry.right?.session_id ?? null) : null,
  });
}
