import { z } from 'zod';
import { conditionsSnapshotSchema, situationBriefSchema } from './conditions.js';
import { goalErrorSchema, goalRefSchema } from './goal-error.js';
import { idSchema, nameSchema, taintSchema, timestampSchema } from './primitives.js';

/** Where a run was started from: `tui`, `web`, `slack`, `voice`, `task`, `trigger`, `cli`, … */
export const surfaceSchema = z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'a surface name');
/** Where a run was started from: `tui`, `web`, `slack`, `voice`, `task`, `trigger`, `cli`, … */
export type Surface = z.infer<typeof surfaceSchema>;

/** Development and experiment sessions are kept out of the ordinary corpus. */
export const sessionKindSchema = z.enum(['ordinary', 'test', 'experiment']);
/** Development and experiment sessions are kept out of the ordinary corpus. */
export type SessionKind = z.infer<typeof sessionKindSchema>;

/**
 * Where an event came from when it was imported from another tool's log: the log file, the line
 * (1-based) and the source's own id of the record (a line's `uuid`, a `tool_use_id`, a call id),
 * so the owner can open the exact line a cite points at. Optional: a harness's own events, and
 * every event written before it existed, have none.
 */
export const eventSourceSchema = z.object({
  file: z.string().min(1).max(4096),
  line: z.int().positive(),
  id: z.string().min(1).max(1024).optional(),
});
/** See {@link eventSourceSchema}. */
export type EventSource = z.infer<typeof eventSourceSchema>;

const base = {
  v: z.literal(1),
  at: timestampSchema,
  run_id: idSchema,
  source: eventSourceSchema.optional(),
};

/** A run began: its surface, workspace, the goal it named and the configuration it ran under. */
export const runStartEventSchema = z.object({
  ...base,
  type: z.literal('run_start'),
  session_id: idSchema,
  surface: surfaceSchema,
  session_kind: sessionKindSchema.default('ordinary'),
  workspace: z.string().max(4096).optional(),
  goal: goalRefSchema.optional(),
  config_id: idSchema.optional(),
  /** Whether a person is present in the run (interactive), as the harness registered it. */
  person_present: z.boolean().optional(),
  /** The tools the run had, by name. */
  tools: z.array(z.string().max(128)).max(512).optional(),
  /** A run resumed in the same session (after a parked question, say). */
  resumed: z.boolean().optional(),
  /** The conditions sampled as the run began; only when the run opted in to live sensors. */
  conditions: conditionsSnapshotSchema.optional(),
  /** The situation brief assembled for the run, and whether it was delivered. */
  brief: situationBriefSchema.optional(),
});

/** A message in the conversation, with the taint of what it carries. */
export const messageEventSchema = z.object({
  ...base,
  type: z.literal('message'),
  turn: z.int().nonnegative(),
  message_id: idSchema,
  role: z.enum(['owner', 'assistant', 'system', 'third_party']),
  taint: taintSchema,
  text: z.string().optional(),
  prompt_tokens: z.int().nonnegative().optional(),
});

/** A tool call: which tool, what it targeted, and a digest of its arguments. */
export const toolCallEventSchema = z.object({
  ...base,
  type: z.literal('tool_call'),
  turn: z.int().nonnegative(),
  call_id: idSchema,
  tool: z.string().min(1).max(128),
  target: z.string().max(4096).optional(),
  args_digest: z.string().max(128).optional(),
});

/** A tool call's result: how it ended, a digest of what came back, and its taint. */
export const toolResultEventSchema = z.object({
  ...base,
  type: z.literal('tool_result'),
  turn: z.int().nonnegative(),
  call_id: idSchema,
  status: z.enum(['ok', 'error', 'denied']),
  result_digest: z.string().max(128).optional(),
  taint: taintSchema,
  text: z.string().optional(),
});

/** A person stepped in: a steer, a denial, or an explicit stop. */
export const interventionEventSchema = z.object({
  ...base,
  type: z.literal('intervention'),
  turn: z.int().nonnegative(),
  kind: z.enum(['steer', 'deny', 'stop']),
});

/** A plan step the model declared a check for, and whether the check passed. */
export const stepCheckEventSchema = z.object({
  ...base,
  type: z.literal('step_check'),
  turn: z.int().nonnegative(),
  step_id: idSchema,
  passed: z.boolean(),
});

/** A counter on the run's own record (`loop_stop`, `turn_ceiling`, `tool_denied`, …). */
export const counterEventSchema = z.object({
  ...base,
  type: z.literal('counter'),
  name: nameSchema,
  value: z.int().nonnegative(),
});

/** The message list was rewritten in place; the run's interventions can no longer be scoped. */
export const compactionEventSchema = z.object({
  ...base,
  type: z.literal('compaction'),
  turn: z.int().nonnegative(),
});

/** Why a run stopped, as the harness recorded it (not a verdict on the work). */
export const stopCauseSchema = z.enum([
  'completed',
  'stopped',
  'shutdown',
  'parked',
  'interrupted',
  'turn_ceiling',
  'token_ceiling',
  'cost_ceiling',
  'loop',
  'empty_output',
  'failed_call',
  'error',
]);
/** Why a run stopped, as the harness recorded it (not a verdict on the work). */
export type StopCause = z.infer<typeof stopCauseSchema>;

/** A run ended, with its stop cause. */
export const runEndEventSchema = z.object({
  ...base,
  type: z.literal('run_end'),
  stop_cause: stopCauseSchema,
  turns: z.int().nonnegative().optional(),
  /** The conditions only the end can know: the run's backlog flow and its peaks. */
  conditions: conditionsSnapshotSchema.optional(),
});

/**
 * A verdict the retired counts-only appraiser wrote before its retirement: one signed error on
 * the `appraisal` channel citing `appraiser`. Nothing writes this event now; an old transcript
 * that holds one still loads, and the error counts as recorded (an `other` or `world` agency on
 * it still reads as anger).
 */
export const appraiserVerdictEventSchema = z.object({
  ...base,
  type: z.literal('appraiser_verdict'),
  error: goalErrorSchema.extend({
    channel: z.literal('appraisal'),
    cite: z.object({ kind: z.literal('appraiser') }),
  }),
});

/**
 * The event kinds a recorder writes today. The retired appraiser's verdicts are read from older
 * transcripts but never written.
 */
export const currentTranscriptEventSchemas = [
  runStartEventSchema,
  messageEventSchema,
  toolCallEventSchema,
  toolResultEventSchema,
  interventionEventSchema,
  stepCheckEventSchema,
  counterEventSchema,
  compactionEventSchema,
  runEndEventSchema,
] as const;

/** One line of `sessions/<id>.jsonl`. */
export const transcriptEventSchema = z.discriminatedUnion('type', [
  ...currentTranscriptEventSchemas,
  appraiserVerdictEventSchema,
]);
/** See {@link transcriptEventSchema}. */
export type TranscriptEvent = z.infer<typeof transcriptEventSchema>;
/** See {@link runStartEventSchema}. */
export type RunStartEvent = z.infer<typeof runStartEventSchema>;
/** See {@link runEndEventSchema}. */
export type RunEndEvent = z.infer<typeof runEndEventSchema>;
/** See {@link appraiserVerdictEventSchema}. */
export type AppraiserVerdictEvent = z.infer<typeof appraiserVerdictEventSchema>;
