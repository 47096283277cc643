import { readFile } from 'node:fs/promises';
import {
  createScriptedReplayer,
  type ReplayScriptEntry,
  replayScriptEntrySchema,
  type ScriptedReplayer,
} from '@mecha/appraisal-core';

/** A scripted replayer read from a file, or why the file cannot serve as one. */
export type ReplayScriptRead =
  | { readonly ok: true; readonly replayer: ScriptedReplayer }
  | { readonly ok: false; readonly message: string };

/**
 * Reads a JSON-lines replay script (one arm per line: `session_id`, `turn`, optional `policy`
 * and `purpose`, and the `outcome`) into a scripted replayer. A line that does not parse is an
 * error naming its line; nothing is guessed.
 */
export async function readReplayScript(path: string): Promise<ReplayScriptRead> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    return { ok: false, message: `the replay script ${path} cannot be read (${code})` };
  }
  const entries: ReplayScriptEntry[] = [];
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return { ok: false, message: `the replay script ${path} line ${index + 1} is not JSON` };
    }
    const parsed = replayScriptEntrySchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        message: `the replay script ${path} line ${index + 1}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is not an arm'}`,
      };
    }
    entries.push(value as ReplayScriptEntry);
  }
  return { ok: true, replayer: createScriptedReplayer(entries) };
}
