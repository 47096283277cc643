import type { StopCause } from '../schemas/transcript.js';

/**
 * How one Claude Code tool call came out, as its session log or its Agent SDK reports it:
 * `rejected` is the person saying no at the permission prompt; `cancelled` is the person
 * stopping the run while the call waited (an Esc, an interrupt); `denied` is a refusal that is
 * no person's act (a setting, a sandbox, an automatic policy); `error` is the tool failing.
 */
export type ClaudeToolOutcome = 'ok' | 'error' | 'denied' | 'rejected' | 'cancelled';

/** What Claude Code writes as a tool's result when the person rejects the call at the prompt. */
export const claudeRejectionText = "The user doesn't want to proceed with this tool use";

/**
 * Reads a tool result Claude Code wrote: the rejection text is the person's rejection, or,
 * where no permission prompt can appear (`bypassPermissions`), an Esc that cancelled the call;
 * `is_error` is the tool failing. Only the tool's own result text is read, never model text.
 */
export function claudeToolOutcome(result: {
  readonly text: string;
  readonly isError: boolean;
  readonly promptsBypassed: boolean;
}): ClaudeToolOutcome {
  if (result.text.startsWith(claudeRejectionText)) {
    return result.promptsBypassed ? 'cancelled' : 'rejected';
  }
  return result.isError ? 'error' : 'ok';
}

/**
 * What a tool call's outcome is recorded as: the `tool_result` status, and the owner's act it
 * carries, if any. A rejection is a `denied` result and a `deny`; a cancellation is a `denied`
 * result and a `steer`; anything else is no act.
 */
export function claudeOutcomeRecord(outcome: ClaudeToolOutcome): {
  readonly status: 'ok' | 'error' | 'denied';
  readonly act: 'deny' | 'steer' | undefined;
} {
  switch (outcome) {
    case 'rejected':
      return { status: 'denied', act: 'deny' };
    case 'cancelled':
      return { status: 'denied', act: 'steer' };
    default:
      return { status: outcome, act: undefined };
  }
}

/**
 * How a headless Claude Code run ended, from its `result` (a `claude -p` stream's closing line,
 * the Agent SDK's result message): `error_max_turns` is the turn ceiling the owner set; any
 * other `error…` subtype, or `is_error`, is an error; else it completed.
 */
export function claudeResultStopCause(
  subtype: string | undefined,
  isError: boolean | undefined,
): StopCause {
  const kind = subtype ?? '';
  if (kind === 'error_max_turns') return 'turn_ceiling';
  return kind.startsWith('error') || isError === true ? 'error' : 'completed';
}

/** What a Claude Code tool call acts on: its file, notebook, path or URL, when it names one. */
export function claudeToolTarget(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const fields = input as Record<string, unknown>;
  for (const key of ['file_path', 'notebook_path', 'path', 'url']) {
    const value = fields[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}
