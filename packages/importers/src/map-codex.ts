import { z } from 'zod';
import type { LineOutcome } from './map-claude-code.js';
import type { SessionBuilder } from './session-builder.js';

const mapped: LineOutcome = { kind: 'mapped' };
const skipped: LineOutcome = { kind: 'skipped' };

const rolloutLine = z.object({
  timestamp: z.iso.datetime({ offset: true }),
  type: z.string(),
  payload: z.looseObject({}),
});

const sessionMeta = z.looseObject({
  cwd: z.string().optional(),
  source: z.unknown().optional(),
});

const contentPart = z.looseObject({ type: z.string(), text: z.string().optional() });
const message = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(contentPart)]),
});
const functionCall = z.looseObject({
  call_id: z.string(),
  name: z.string(),
  arguments: z.unknown().optional(),
});
const customToolCall = z.looseObject({
  call_id: z.string(),
  name: z.string(),
  input: z.unknown().optional(),
});
const localShellCall = z.looseObject({ call_id: z.string(), action: z.unknown().optional() });
const callOutput = z.looseObject({ call_id: z.string(), output: z.unknown() });
const userMessage = z.looseObject({ message: z.string() });
const execCommandEnd = z.looseObject({ call_id: z.string(), exit_code: z.int() });
const patchApplyEnd = z.looseObject({ call_id: z.string(), success: z.boolean() });
const turnAborted = z.looseObject({ reason: z.string().optional() });

/** What Codex hands the model when the person declines an approval request. */
const rejections = ['exec command rejected by user', 'patch rejected by user'];

function firstIssue(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  if (issue === undefined) return `${where}: not what this importer reads`;
  const path = issue.path.length === 0 ? '' : `.${issue.path.join('.')}`;
  return `${where}${path}: ${issue.message}`;
}

function parsed<T>(
  schema: z.ZodType<T>,
  value: unknown,
  where: string,
): { ok: true; data: T } | { ok: false; outcome: LineOutcome } {
  const result = schema.safeParse(value);
  return result.success
    ? { ok: true, data: result.data }
    : { ok: false, outcome: { kind: 'damaged', reason: firstIssue(result.error, where) } };
}

function textOf(content: string | readonly { readonly text?: string | undefined }[]): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) => part.text ?? '')
    .join('\n')
    .trim();
}

/**
 * The exit code a plain-text command output states: `Exit code: N` on its first line (the
 * `shell_command` tool, Codex 0.77 on), or `Process exited with code N` (unified exec).
 */
function plainExitCode(text: string): number | undefined {
  const match =
    /^Exit code: (-?\d+)/.exec(text) ?? /^Process exited with code (-?\d+)$/m.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The output text of a call, and what it says about how the call ended. */
function outputStatus(output: unknown): { text: string; status: 'ok' | 'error' | 'rejected' } {
  let text = typeof output === 'string' ? output : JSON.stringify(output ?? null);
  let failed = false;
  let body: unknown = output;
  if (typeof output === 'string') {
    try {
      body = JSON.parse(output);
    } catch {
      body = output;
    }
  }
  if (typeof body === 'object' && body !== null) {
    const fields = body as Record<string, unknown>;
    if (typeof fields.output === 'string') text = fields.output;
    else if (typeof fields.content === 'string') text = fields.content;
    const metadata = fields.metadata as Record<string, unknown> | undefined;
    if (typeof metadata?.exit_code === 'number' && metadata.exit_code !== 0) failed = true;
    if (fields.success === false) failed = true;
  }
  if (rejections.includes(text.trim())) return { text, status: 'rejected' };
  const code = plainExitCode(text);
  if (code !== undefined && code !== 0) failed = true;
  return { text, status: failed ? 'error' : 'ok' };
}

function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

function targetOf(argumentsValue: unknown): string | undefined {
  let fields: unknown = argumentsValue;
  if (typeof argumentsValue === 'string') {
    try {
      fields = JSON.parse(argumentsValue);
    } catch {
      return undefined;
    }
  }
  if (typeof fields !== 'object' || fields === null) return undefined;
  for (const key of ['path', 'file_path', 'url']) {
    const value = (fields as Record<string, unknown>)[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function mapResponseItem(
  at: string,
  payload: Record<string, unknown>,
  builder: SessionBuilder,
): LineOutcome {
  switch (payload.type) {
    case 'message': {
      const item = parsed(message, payload, 'response_item message');
      if (!item.ok) return item.outcome;
      // The person's prompt is read from its `user_message` event; user items also carry the
      // environment and instructions Codex injects, which are not the person's words.
      if (item.data.role !== 'assistant') return skipped;
      const text = textOf(item.data.content);
      if (text === '') return skipped;
      builder.assistantText(at, builder.responseKey(), text);
      return mapped;
    }
    case 'function_call': {
      const item = parsed(functionCall, payload, 'response_item function_call');
      if (!item.ok) return item.outcome;
      const target = targetOf(item.data.arguments);
      builder.toolCall(at, builder.responseKey(), {
        id: item.data.call_id,
        tool: item.data.name,
        ...(target === undefined ? {} : { target }),
        args: argumentsText(item.data.arguments),
      });
      return mapped;
    }
    case 'custom_tool_call': {
      const item = parsed(customToolCall, payload, 'response_item custom_tool_call');
      if (!item.ok) return item.outcome;
      builder.toolCall(at, builder.responseKey(), {
        id: item.data.call_id,
        tool: item.data.name,
        args: argumentsText(item.data.input),
      });
      return mapped;
    }
    case 'local_shell_call': {
      const item = parsed(localShellCall, payload, 'response_item local_shell_call');
      if (!item.ok) return item.outcome;
      builder.toolCall(at, builder.responseKey(), {
        id: item.data.call_id,
        tool: 'local_shell',
        args: argumentsText(item.data.action),
      });
      return mapped;
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const item = parsed(callOutput, payload, `response_item ${payload.type}`);
      if (!item.ok) return item.outcome;
      const { text, status } = outputStatus(item.data.output);
      builder.toolResult(at, { callId: item.data.call_id, status, content: text });
      return mapped;
    }
    default:
      return skipped;
  }
}

function mapEvent(
  at: string,
  payload: Record<string, unknown>,
  builder: SessionBuilder,
): LineOutcome {
  switch (payload.type) {
    case 'user_message': {
      const item = parsed(userMessage, payload, 'event_msg user_message');
      if (!item.ok) return item.outcome;
      builder.prompt(at, item.data.message);
      return mapped;
    }
    case 'task_complete':
    case 'turn_complete':
      builder.end(at, 'completed');
      return mapped;
    case 'turn_aborted': {
      const item = parsed(turnAborted, payload, 'event_msg turn_aborted');
      if (!item.ok) return item.outcome;
      if (item.data.reason === 'interrupted') builder.interrupt(at);
      else builder.end(at, 'interrupted');
      return mapped;
    }
    case 'context_compacted':
      builder.compaction(at);
      return mapped;
    case 'exec_command_end': {
      const item = parsed(execCommandEnd, payload, 'event_msg exec_command_end');
      if (!item.ok) return item.outcome;
      builder.callExit(item.data.call_id, item.data.exit_code);
      return mapped;
    }
    case 'patch_apply_end': {
      const item = parsed(patchApplyEnd, payload, 'event_msg patch_apply_end');
      if (!item.ok) return item.outcome;
      builder.callExit(item.data.call_id, item.data.success ? 0 : 1);
      return mapped;
    }
    default:
      return skipped;
  }
}

/**
 * Maps one parsed line of a Codex rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`):
 * `{timestamp, type, payload}` with `session_meta`, `turn_context`, `response_item`,
 * `event_msg` and `compacted` lines. Reasoning, token counts and other events are skipped.
 */
export function mapCodexLine(record: unknown, builder: SessionBuilder): LineOutcome {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return { kind: 'damaged', reason: 'not a JSON object' };
  }
  const line = parsed(rolloutLine, record, 'rollout line');
  if (!line.ok) return line.outcome;
  const { timestamp: at, type, payload } = line.data;
  switch (type) {
    case 'session_meta': {
      const meta = parsed(sessionMeta, payload, 'session_meta');
      if (!meta.ok) return meta.outcome;
      const source = meta.data.source;
      // `exec` runs headless; the interactive surfaces have a person at the prompt.
      const personPresent =
        source === 'exec' ? false : source === 'cli' || source === 'vscode' ? true : undefined;
      builder.context({
        ...(meta.data.cwd === undefined ? {} : { workspace: meta.data.cwd }),
        ...(personPresent === undefined ? {} : { personPresent }),
      });
      return mapped;
    }
    case 'turn_context': {
      if (typeof payload.cwd === 'string') builder.context({ workspace: payload.cwd });
      return skipped;
    }
    case 'compacted':
      builder.compaction(at);
      return mapped;
    case 'response_item':
      return mapResponseItem(at, payload, builder);
    case 'event_msg':
      return mapEvent(at, payload, builder);
    default:
      return skipped;
  }
}
