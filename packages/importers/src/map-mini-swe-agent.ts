import type { StopCause } from '@mecha/appraisal-core';
import { z } from 'zod';
import type { SessionBuilder } from './session-builder.js';

/**
 * What reading one mini-swe-agent trajectory gave: the run mapped (with what the source said
 * about how it ended, and what it counted), or why the file cannot be read as one.
 */
export type TrajectoryReading =
  | {
      readonly kind: 'mapped';
      /** The agent's own `info.exit_status`, as written. */
      readonly exitStatus: string;
      readonly stopCause: StopCause;
      readonly calls: number;
      readonly failedCalls: number;
      readonly formatErrors: number;
      readonly commandTimeouts: number;
      /** Harness messages this importer does not recognise (counted, not mapped). */
      readonly unmapped: number;
    }
  | { readonly kind: 'unreadable'; readonly reason: string };

const message = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(z.looseObject({ text: z.string().optional() }))]),
  extra: z.unknown().optional(),
});

const trajectory = z.looseObject({
  trajectory_format: z.string(),
  info: z.looseObject({
    exit_status: z.string().nullable(),
    model_stats: z
      .looseObject({ instance_cost: z.number().optional(), api_calls: z.number().optional() })
      .optional(),
    config: z
      .looseObject({
        agent: z
          .looseObject({ step_limit: z.number().optional(), cost_limit: z.number().optional() })
          .optional(),
      })
      .optional(),
  }),
  messages: z.array(message),
});

/** The trajectory formats this importer reads. */
export const miniSweAgentFormats: readonly string[] = ['mini-swe-agent-1'];

/** mini-swe-agent's action: one fenced bash block (its `action_regex`). */
const actionPattern = /```bash\s*\n(.*?)\n```/gs;
const returnCodePattern = /^<returncode>(-?\d+)<\/returncode>/;
const formatErrorMarker = 'Please always provide EXACTLY ONE action';
const timeoutPattern = /^The last command <command>[\s\S]*?<\/command> timed out/;

/** Time is not recorded per message: a step takes its response's `created`, else the last one. */
const notRecorded = '1970-01-01T00:00:00.000Z';

function textOf(content: z.infer<typeof message>['content']): string {
  return typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('\n');
}

function createdOf(extra: unknown): string | undefined {
  if (typeof extra !== 'object' || extra === null) return undefined;
  const response = (extra as { response?: unknown }).response;
  if (typeof response !== 'object' || response === null) return undefined;
  const created = (response as { created?: unknown }).created;
  return typeof created === 'number' && Number.isFinite(created) && created > 0
    ? new Date(created * 1000).toISOString()
    : undefined;
}

/**
 * How the run ended, read off the agent's exit status: `Submitted` is a completed run;
 * `LimitsExceeded` is the step limit (a turn ceiling) or the cost limit (a cost ceiling), told
 * apart by the recorded calls and cost against the configured limits; anything else is the
 * agent process failing (`error`, which signs nothing).
 */
export function stopCauseOf(info: z.infer<typeof trajectory>['info']): StopCause {
  const status = info.exit_status;
  if (status === 'Submitted') return 'completed';
  if (status === 'LimitsExceeded') {
    const limits = info.config?.agent;
    const stats = info.model_stats;
    const costLimit = limits?.cost_limit ?? 0;
    const stepLimit = limits?.step_limit ?? 0;
    if (costLimit > 0 && (stats?.instance_cost ?? 0) >= costLimit) return 'cost_ceiling';
    if (stepLimit > 0 && (stats?.api_calls ?? 0) >= stepLimit) return 'turn_ceiling';
  }
  return 'error';
}

/**
 * Maps one mini-swe-agent trajectory (`<instance>.traj.json`, format `mini-swe-agent-1`) onto
 * the session being built, as one run with no person present: the task is the prompt; each
 * assistant step its text and, when it holds exactly one bash block, a `bash` call; each
 * `<returncode>` observation that call's result (`error` when the code is not 0); a command
 * timeout an `error` result and a `command_timeout` counter; a format error (no block, or
 * several) a `format_error` counter; the final submission the last call's result; and the end
 * the agent's exit status. The trial's verdict is not in the trajectory and is never read here.
 */
export function mapMiniSweAgentTrajectory(
  record: unknown,
  builder: SessionBuilder,
): TrajectoryReading {
  const parsed = trajectory.safeParse(record);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
    return { kind: 'unreadable', reason: `${where}${issue?.message ?? 'not a trajectory'}` };
  }
  const traj = parsed.data;
  if (!miniSweAgentFormats.includes(traj.trajectory_format)) {
    return {
      kind: 'unreadable',
      reason: `trajectory format ${JSON.stringify(traj.trajectory_format)} is not one this importer reads`,
    };
  }
  if (traj.info.exit_status === null) {
    return { kind: 'unreadable', reason: 'no exit status: the run did not finish' };
  }
  builder.context({ personPresent: false });
  let at = notRecorded;
  let prompted = false;
  let pendingCall: string | null = null;
  let calls = 0;
  let failedCalls = 0;
  let formatErrors = 0;
  let commandTimeouts = 0;
  let unmapped = 0;
  const stopCause = stopCauseOf(traj.info);
  const last = traj.messages.length - 1;
  for (const [index, entry] of traj.messages.entries()) {
    at = createdOf(entry.extra) ?? at;
    const text = textOf(entry.content);
    if (entry.role === 'system') continue;
    if (entry.role === 'assistant') {
      const key = builder.responseKey();
      if (text.trim() !== '') builder.assistantText(at, key, text);
      const actions = [...text.matchAll(actionPattern)];
      const action = actions[0];
      if (actions.length === 1 && action !== undefined) {
        calls += 1;
        pendingCall = `call-${calls}`;
        builder.toolCall(at, key, { id: pendingCall, tool: 'bash', args: action[1] ?? '' });
      } else {
        pendingCall = null;
      }
      continue;
    }
    if (!prompted) {
      builder.prompt(at, text);
      prompted = true;
      continue;
    }
    // Every later user line is the environment answering the agent: its loop goes on, so an
    // answer without a single action (a format error) did not end the run.
    builder.continueTurn();
    const code = returnCodePattern.exec(text);
    if (code !== null && pendingCall !== null) {
      const failed = Number(code[1]) !== 0;
      if (failed) failedCalls += 1;
      builder.toolResult(at, {
        callId: pendingCall,
        status: failed ? 'error' : 'ok',
        content: text,
      });
      pendingCall = null;
    } else if (timeoutPattern.test(text) && pendingCall !== null) {
      failedCalls += 1;
      commandTimeouts += 1;
      builder.toolResult(at, { callId: pendingCall, status: 'error', content: text });
      builder.counter(at, 'command_timeout', 1);
      pendingCall = null;
    } else if (text.startsWith(formatErrorMarker)) {
      formatErrors += 1;
      builder.counter(at, 'format_error', 1);
    } else if (index === last && pendingCall !== null && stopCause === 'completed') {
      // The submission: the output of the submit command, written without a return code.
      builder.toolResult(at, { callId: pendingCall, status: 'ok', content: text });
      pendingCall = null;
    } else {
      unmapped += 1;
    }
  }
  if (!prompted) return { kind: 'unreadable', reason: 'no task message' };
  builder.end(at, stopCause);
  return {
    kind: 'mapped',
    exitStatus: traj.info.exit_status,
    stopCause,
    calls,
    failedCalls,
    formatErrors,
    commandTimeouts,
    unmapped,
  };
}
