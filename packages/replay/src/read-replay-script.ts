import { readFile } from 'node:fs/promises';
import {
  createScriptedReplayer,
  type ReplayScriptEntry,
  replayScriptEntrySchema,
  type ScriptedReplayer,
} from '@mecha/appraisal-core';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';

/** A scripted replayer read from a file, or why the file cannot serve as one. */
export type ReplayScriptRead = Either<Refusal<'unreadable'>, ScriptedReplayer>;

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
    return left(refusal('unreadable', `the replay script ${path} cannot be read (${code})`));
  }
  const entries: ReplayScriptEntry[] = [];
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return left(refusal('unreadable', `the replay script ${path} line ${index + 1} is not JSON`));
    }
    const parsed = replayScriptEntrySchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return left(
        refusal(
          'unreadable',
          `the replay script ${path} line ${index + 1}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is not an arm'}`,
        ),
      );
    }
    entries.push(value as ReplayScriptEntry);
  }
  return right(createScriptedReplayer(entries));
}
