import { claudeResultStopCause, claudeToolOutcome, claudeToolTarget } from '@mecha/appraisal-core';
import { z } from 'zod';
import type { SessionBuilder } from './session-builder.js';

/** What mapping one source line gave: mapped (or deliberately skipped), or why it is damaged. */
export type LineOutcome =
  | { readonly kind: 'mapped' }
  | { readonly kind: 'skipped' }
  | { readonly kind: 'damaged'; readonly reason: string };

const mapped: LineOutcome = { kind: 'mapped' };
const skipped: LineOutcome = { kind: 'skipped' };

const timestamp = z.iso.datetime({ offset: true });

const block = z.looseObject({ type: z.string() });

const userLine = z.looseObject({
  type: z.literal('user'),
  timestamp,
  cwd: z.string().optional(),
  isMeta: z.boolean().optional(),
  isSidechain: z.boolean().optional(),
  isCompactSummary: z.boolean().optional(),
  isVisibleInTranscriptOnly: z.boolean().optional(),
  permissionMode: z.string().optional(),
  message: z.looseObject({ content: z.union([z.string(), z.array(block)]) }),
});

const assistantLine = z.looseObject({
  type: z.literal('assistant'),
  timestamp,
  uuid: z.string().optional(),
  cwd: z.string().optional(),
  isSidechain: z.boolean().optional(),
  isApiErrorMessage: z.boolean().optional(),
  message: z.looseObject({
    id: z.string().optional(),
    content: z.union([z.string(), z.array(block)]),
    stop_reason: z.string().nullable().optional(),
  }),
});

const systemLine = z.looseObject({
  type: z.literal('system'),
  timestamp,
  subtype: z.string().optional(),
  content: z.unknown().optional(),
});

/** Terminal colour codes, as Claude Code 1.0.x writes them around a hook's name. */
const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/**
 * Whether a `system` line with no subtype is Claude Code 1.0.x's note that the Stop hook ran
 * (`Stop [command] completed successfully`, or failed without blocking): the turn is over. A
 * blocking failure is not: the agent goes on with the hook's feedback.
 */
export function stopHookRan(content: unknown): boolean {
  if (typeof content !== 'string') return false;
  const text = content.replace(ansi, '');
  return /^Stop \[[^\n]*\] (?:completed successfully|failed with non-blocking status code)/.test(
    text,
  );
}

/** A headless run's (`claude -p`) closing line. */
const resultLine = z.looseObject({
  type: z.literal('result'),
  timestamp,
  subtype: z.string().optional(),
  is_error: z.boolean().optional(),
});

/** What Claude Code writes as a user line when the person interrupts (Esc). */
const interruptMarker = '[Request interrupted by user';

/**
 * What a user line's text is. Claude Code writes more than the person's words as user lines:
 * notices it injects (a background task finished, a reminder, hook feedback, the caveat before a
 * local command's output) and the echo of a local command's output. A slash command is the
 * person's request, written as tags.
 */
export type UserText =
  | { readonly kind: 'prompt'; readonly text: string }
  | { readonly kind: 'command'; readonly text: string }
  | { readonly kind: 'interrupt' }
  | { readonly kind: 'echo' }
  | { readonly kind: 'notice' };

/** Injected notices: the whole line is the harness's, not the person's. */
const noticeOpeners = [
  '<task-notification>',
  '<local-command-caveat>',
  '<user-prompt-submit-hook>',
  '<system-reminder>',
];
/** The echo of a local command's output (a slash command's, or a `!` shell line's). */
const echoOpeners = [
  '<local-command-stdout>',
  '<local-command-stderr>',
  '<bash-stdout>',
  '<bash-stderr>',
];
/** Feedback a blocking hook hands back to the model ("Stop hook feedback:", …). */
const hookFeedback = /^[A-Za-z]+ hook (?:feedback|error|blocking error)\b/;
const reminder = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

function tagged(text: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
  return match?.[1]?.trim();
}

/** Reads what a user line's text is (see {@link UserText}). */
export function classifyUserText(raw: string): UserText {
  const text = raw.replace(reminder, '').trim();
  if (text === '') return { kind: 'notice' };
  if (text.startsWith(interruptMarker)) return { kind: 'interrupt' };
  if (noticeOpeners.some((opener) => text.startsWith(opener))) return { kind: 'notice' };
  if (hookFeedback.test(text)) return { kind: 'notice' };
  if (echoOpeners.some((opener) => text.startsWith(opener))) return { kind: 'echo' };
  const name = tagged(text, 'command-name');
  if (
    name !== undefined &&
    (text.startsWith('<command-') || text.startsWith('<command-message>'))
  ) {
    const args = tagged(text, 'command-args') ?? '';
    const command = name.startsWith('/') ? name : `/${name}`;
    return { kind: 'command', text: args === '' ? command : `${command} ${args}` };
  }
  const shell = text.startsWith('<bash-input>') ? tagged(text, 'bash-input') : undefined;
  if (shell !== undefined) return { kind: 'command', text: `!${shell}` };
  return { kind: 'prompt', text };
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'not a record this importer reads';
  const path = issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
  return `${path}${issue.message}`;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content
    .map((part) =>
      typeof part === 'object' &&
      part !== null &&
      typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .join('\n');
}

function mapUser(line: z.infer<typeof userLine>, builder: SessionBuilder): LineOutcome {
  if (line.permissionMode !== undefined) builder.context({ permissionMode: line.permissionMode });
  // Expanded skill or command text, reminders, the summary a compaction continues from: the
  // harness's, not the person's.
  if (
    line.isMeta === true ||
    line.isCompactSummary === true ||
    line.isVisibleInTranscriptOnly === true
  ) {
    return skipped;
  }
  const content = line.message.content;
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  let outcome: LineOutcome = skipped;
  const texts: string[] = [];
  for (const part of blocks) {
    if (part.type === 'tool_result') {
      const callId = typeof part.tool_use_id === 'string' ? part.tool_use_id : '';
      if (callId === '')
        return { kind: 'damaged', reason: 'a tool_result without its tool_use_id' };
      const text = textOf(part.content);
      // With permissions bypassed no prompt can appear: the "rejection" is an Esc.
      const status = claudeToolOutcome({
        text,
        isError: part.is_error === true,
        promptsBypassed: builder.promptsBypassed,
      });
      builder.toolResult(line.timestamp, { callId, status, content: text });
      outcome = mapped;
    } else if (part.type === 'text' && typeof part.text === 'string') {
      texts.push(part.text);
    }
  }
  const text = texts.join('\n').trim();
  if (text === '') return outcome;
  const read = classifyUserText(text);
  switch (read.kind) {
    case 'interrupt':
      builder.interrupt(line.timestamp);
      return mapped;
    case 'echo':
      builder.localCommandDone(line.timestamp);
      return outcome;
    case 'notice':
      return outcome;
    default:
      builder.prompt(line.timestamp, read.text);
      return mapped;
  }
}

function mapAssistant(line: z.infer<typeof assistantLine>, builder: SessionBuilder): LineOutcome {
  const at = line.timestamp;
  const key = line.message.id ?? line.uuid ?? at;
  const content = line.message.content;
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  for (const part of blocks) {
    if (part.type === 'text' && typeof part.text === 'string' && part.text.trim() !== '') {
      builder.assistantText(at, key, part.text);
    } else if (part.type === 'tool_use') {
      if (typeof part.id !== 'string' || typeof part.name !== 'string') {
        return { kind: 'damaged', reason: 'a tool_use without its id or name' };
      }
      const target = claudeToolTarget(part.input);
      builder.toolCall(at, key, {
        id: part.id,
        tool: part.name,
        ...(target === undefined ? {} : { target }),
        args: JSON.stringify(part.input ?? null),
      });
    }
  }
  if (line.isApiErrorMessage === true) {
    // The provider's failure, not the model's: a run that ends on it ends in `error`.
    builder.endAfterStep(at, 'error');
  } else if (line.message.stop_reason === 'max_tokens') {
    // The response hit the output-token limit the owner's configuration sets: a ceiling stop.
    builder.endAfterStep(at, 'token_ceiling');
  } else if (line.message.stop_reason === 'end_turn') {
    builder.endAfterStep(at, 'completed');
  }
  return mapped;
}

/**
 * Maps one parsed line of a Claude Code session log (`~/.claude/projects/<project>/<id>.jsonl`)
 * onto the session being built. Subagent lines (`isSidechain`) and bookkeeping lines (summaries,
 * file-history snapshots, queue operations) are skipped; a line whose fields are not what the
 * format says is damaged.
 */
export function mapClaudeCodeLine(record: unknown, builder: SessionBuilder): LineOutcome {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return { kind: 'damaged', reason: 'not a JSON object' };
  }
  const fields = record as Record<string, unknown>;
  if (typeof fields.type !== 'string') return { kind: 'damaged', reason: 'no "type" field' };
  if (fields.isSidechain === true) return skipped;
  if (typeof fields.uuid === 'string') builder.identify(fields.uuid);
  switch (fields.type) {
    case 'user': {
      const line = userLine.safeParse(record);
      if (!line.success) return { kind: 'damaged', reason: firstIssue(line.error) };
      if (line.data.cwd !== undefined) builder.context({ workspace: line.data.cwd });
      return mapUser(line.data, builder);
    }
    case 'assistant': {
      const line = assistantLine.safeParse(record);
      if (!line.success) return { kind: 'damaged', reason: firstIssue(line.error) };
      return mapAssistant(line.data, builder);
    }
    case 'system': {
      const line = systemLine.safeParse(record);
      if (!line.success) return { kind: 'damaged', reason: firstIssue(line.error) };
      if (line.data.subtype === 'compact_boundary') {
        builder.compaction(line.data.timestamp);
        return mapped;
      }
      if (
        line.data.subtype === 'turn_duration' ||
        line.data.subtype === 'stop_hook_summary' ||
        (line.data.subtype === undefined && stopHookRan(line.data.content))
      ) {
        builder.turnEnded(line.data.timestamp);
        return mapped;
      }
      return skipped;
    }
    case 'result': {
      // Only a headless run's output stream has these; without a timestamp it cannot be placed.
      if (fields.timestamp === undefined) return skipped;
      const line = resultLine.safeParse(record);
      if (!line.success) return { kind: 'damaged', reason: firstIssue(line.error) };
      const subtype = line.data.subtype ?? '';
      builder.turnEnded(line.data.timestamp, claudeResultStopCause(subtype, line.data.is_error));
      return mapped;
    }
    default:
      return skipped;
  }
}
