import { createHash } from 'node:crypto';
import type { ImportTool } from './session-state.js';

// What a log says about itself: its own id (the session key), and whether it is a log of the
// tool it was handed to at all.

/**
 * A session id in mecha's form (start to the second, eight hex digits of a hash of the log's own
 * id), so the same log read from another path (a backup, a moved folder, a second machine) is
 * the same session. A log that names no id falls back to its path.
 */
export function sessionIdFor(tool: ImportTool, key: string, firstAt: string): string {
  const stamp = new Date(firstAt).toISOString().replace(/[-:]/g, '').slice(0, 15);
  const hex = createHash('sha256').update(`${tool}\n${key}`).digest('hex').slice(0, 8);
  return `${stamp}-${hex}`;
}

/** The log's own session id: Claude Code's `sessionId`, Codex's `session_meta` `payload.id`. */
export function logIdOf(tool: ImportTool, record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const fields = record as Record<string, unknown>;
  const id =
    tool === 'claude-code'
      ? (fields.sessionId ?? fields.session_id)
      : fields.type === 'session_meta'
        ? (fields.payload as Record<string, unknown> | undefined)?.id
        : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

const codexLineTypes = ['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted'];
const claudeLineTypes = ['user', 'assistant', 'summary', 'system', 'file-history-snapshot'];

/**
 * Why a file whose first line is `text` (parsed as `record`, when it parses) is not a log of
 * `tool` at all, or undefined when it may be one (its lines are then checked one by one).
 */
export function notThisToolsLog(
  tool: ImportTool,
  text: string,
  record: unknown,
): string | undefined {
  const title = tool === 'claude-code' ? 'Claude Code' : 'Codex';
  const trimmed = text.trim();
  if (record === undefined) {
    return trimmed === '{' || trimmed.startsWith('[')
      ? `not a ${title} log: not JSON Lines (its first line is "${trimmed.slice(0, 20)}"; a pretty-printed JSON file?)`
      : undefined;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return `not a ${title} log: its first line is JSON but not an object (one record a line is expected)`;
  }
  const fields = record as Record<string, unknown>;
  const codexShaped =
    typeof fields.type === 'string' && codexLineTypes.includes(fields.type) && 'payload' in fields;
  const claudeShaped =
    'sessionId' in fields ||
    (typeof fields.type === 'string' &&
      claudeLineTypes.includes(fields.type) &&
      !('payload' in fields));
  if (tool === 'claude-code' && codexShaped) {
    return 'not a Claude Code log: a Codex rollout (read it with `mecha import codex`)';
  }
  if (tool === 'codex' && claudeShaped) {
    return 'not a Codex rollout: a Claude Code log (read it with `mecha import claude-code`)';
  }
  if (tool === 'codex' && !('payload' in fields) && 'id' in fields) {
    return 'an old Codex rollout format (a bare first line with `id` and `instructions`, written before the `{timestamp, type, payload}` lines): not read';
  }
  return undefined;
}

export function timestampOf(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const at = (record as { timestamp?: unknown }).timestamp;
  return typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? at : undefined;
}
