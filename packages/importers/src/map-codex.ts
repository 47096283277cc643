import { couldNotRead, readValue, type ValueRead } from '@mecha/errors';
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

function parsed<T>(schema: z.ZodType<T>, value: unknown, where: string): ValueRead<T> {
  const result = schema.safeParse(value);
  return result.success ? readValue(result.data) : couldNotRead(firstIssue(result.error, where));
}

const damaged = (item: { readonly reason: string }): LineOutcome => ({
  kind: 'damaged',
  reason: item.reason,
});

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
      if (item.state === 'unreadable') return damaged(item);
      // The person's prompt is read from its `user_message` event; user items also carry the
      // environment and instructions Codex injects, which are not the person's words.
      if (item.value.role !== 'assistant') return skipped;
      const text = textOf(item.value.content);
      if (text === '') return skipped;
      builder.assistantText(at, builder.responseKey(), text);
      return mapped;
    }
    case 'function_call': {
      const item = parsed(functionCall, payload, 'response_item function_call');
      if (item.state === 'unreadable') return damaged(item);
      const target = targetOf(item.value.arguments);
      builder.toolCall(at, builder.responseKey(), {
        id: item.value.call_id,
        tool: item.value.name,
        ...(target === undefined ? {} : { target }),
        args: argumentsText(item.value.arguments),
      });
      return mapped;
    }
    case 'custom_tool_call': {
      const item = parsed(customToolCall, payload, 'response_item custom_tool_call');
      if (item.state === 'unreadable') return damaged(item);
      builder.toolCall(at, builder.responseKey(), {
        id: item.value.call_id,
        tool: item.value.name,
        args: argumentsText(item.value.input),
      });
      return mapped;
    }
    case 'local_shell_call': {
      const item = parsed(localShellCall, payload, 'response_item local_shell_call');
      if (item.state === 'unreadable') return damaged(item);
      builder.toolCall(at, builder.responseKey(), {
        id: item.value.call_id,
        tool: 'local_shell',
        args: argumentsText(item.value.action),
      });
      return mapped;
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const item = parsed(callOutput, payload, `response_item ${payload.type}`);
      if (item.state === 'unreadable') return damaged(item);
      const { text, status } = outputStatus(item.value.output);
      builder.toolResult(at, { callId: item.value.call_id, status, content: text });
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
      if (item.state === 'unreadable') return damaged(item);
      builder.prompt(at, item.value.message);
      return mapped;
    }
    case 'task_complete':
    case 'turn_complete':
      builder.end(at, 'completed');
      return mapped;
    case 'turn_aborted': {
      const item = parsed(turnAborted, payload, 'event_msg turn_aborted');
      if (item.state === 'unreadable') return damaged(item);
      if (item.value.reason === 'interrupted') builder.interrupt(at);
      else builder.end(at, 'interrupted');
      return mapped;
    }
    case 'context_compacted':
      builder.compaction(at);
      return mapped;
    case 'exec_command_end': {
      const item = parsed(execCommandEnd, payload, 'event_msg exec_command_end');
      if (item.state === 'unreadable') return damaged(item);
      builder.callExit(item.value.call_id, item.value.exit_code);
      return mapped;
    }
    case 'patch_apply_end': {
      const item = parsed(patchApplyEnd, payload, 'event_msg patch_apply_end');
      if (item.state === 'unreadable') return damaged(item);
      builder.callExit(item.value.call_id, item.value.success ? 0 : 1);
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
  if (line.state === 'unreadable') return damaged(line);
  const { timestamp: at, type, payload } = line.value;
  switch (type) {
    case 'session_meta': {
      const meta = parsed(sessionMeta, payload, 'session_meta');
      if (meta.state === 'unreadable') return damaged(meta);
      const source = meta.value.source;
      // `exec` runs headless; the interactive surfaces have a person at the prompt.
      const personPresent =
        source === 'exec' ? false : source === 'cli' || source === 'vscode' ? true : undefined;
      builder.context({
        ...(meta.value.cwd === undefined ? {} : { workspace: meta.value.cwd }),
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
