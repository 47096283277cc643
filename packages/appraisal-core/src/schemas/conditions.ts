import { charterSensors, commitmentStores } from '@mecha/charter';
import { z } from 'zod';
import { idSchema } from './primitives.js';

const count = z.int().nonnegative();
const milliseconds = z.int().nonnegative();
const storeSchema = z.enum(commitmentStores);

// The charter's own id rule (lowercase letters of any script, digits, marks, `_.-`; at most 64
// code points). Written here as a pattern so the JSON Schema the build emits can carry it.
const charterLineIdSchema = z
  .string()
  .regex(/^[\p{Ll}\p{Lo}\p{Nd}][\p{Ll}\p{Lo}\p{Lm}\p{M}\p{Nd}_.-]{0,63}$/u, 'a charter line id');

/** How many rows waited in one store, and whether the store was read whole (else "at least"). */
const backlogStoreSchema = z.object({ count, complete: z.boolean() });

/**
 * What one run did to one store, item by item: the ids it added and the ids it cleared. The net
 * is `added − cleared`; a net of zero with both lists empty is a run that moved nothing, which a
 * bare net cannot tell apart from one that added and cleared the same number.
 */
const storeFlowSchema = z.object({
  added: z.array(idSchema).max(4096),
  cleared: z.array(idSchema).max(4096),
  /** False when either read of the store was cut short, so the lists may be incomplete. */
  complete: z.boolean(),
});

/** One pending row and its guilt, as `@mecha/charter`'s `appraiseCommitment` read it. */
const commitmentSchema = z.discriminatedUnion('owed', [
  z.object({
    owed: z.literal(true),
    id: idSchema,
    age_ms: milliseconds,
    patience_ms: z.int().positive(),
    patience_source: z.enum(['setpoint', 'default']),
    past_patience: z.boolean(),
    guilt: z.number().min(0).lt(1),
    /** The charter line whose sensor watches the store; absent when none does. */
    line: z.object({ id: charterLineIdSchema, rank: z.int().positive() }).optional(),
  }),
  z.object({
    owed: z.literal(false),
    id: idSchema,
    age_ms: milliseconds,
    /** A request parked on its requester owes nothing and carries no guilt. */
    reason: z.literal('needs_info'),
  }),
]);

/** Every pending row of one store, and whether the store was read whole. */
const commitmentsStoreSchema = z.object({
  items: z.array(commitmentSchema).max(4096),
  complete: z.boolean(),
});

/**
 * The five states of a charter reading. Only `within` and `no_items` meet the setpoint: a
 * reading cut short (`partial`) or not taken (`unread`) never counts as meeting it.
 */
export const charterReadingStateSchema = z.enum([
  'within',
  'past_setpoint',
  'no_items',
  'partial',
  'unread',
]);
/**
 * The five states of a charter reading. Only `within` and `no_items` meet the setpoint: a
 * reading cut short (`partial`) or not taken (`unread`) never counts as meeting it.
 */
export type CharterReadingState = z.infer<typeof charterReadingStateSchema>;

/** One sensored charter line as it read when the run began. */
const charterReadingSchema = z.object({
  line: charterLineIdSchema,
  rank: z.int().positive(),
  sensor: z.enum(charterSensors),
  store: storeSchema,
  state: charterReadingStateSchema,
  /** The patience the line sets (or the store's default when the line has no setpoint). */
  setpoint_ms: z.int().positive(),
  setpoint_source: z.enum(['setpoint', 'default']),
  /** The age of the oldest row waiting on the owner; absent when none waits or it was unread. */
  level_ms: milliseconds.optional(),
  /** Rows waiting on the owner, and how many of them are past the setpoint. */
  items_waiting: count.optional(),
  items_past_setpoint: count.optional(),
  /** The run's own flow on the line's store, filled in from `backlog_delta` on read. */
  run_delta: storeFlowSchema.optional(),
  /** Whether the line's store was withdrawn from the run as saturated. */
  withdrawn_saturated: z.boolean(),
});

const perStore = <T extends z.ZodType>(schema: T) =>
  z.object({
    outbox: schema.optional(),
    questions: schema.optional(),
    requests: schema.optional(),
  });

/**
 * The conditions a run happened under. Every field is optional, and a missing one means the
 * sensor could not be read — never zero. The start-of-run fields ride on `run_start`; the ones
 * only the end can know (`backlog_delta` and the peaks) ride on `run_end`; a reader merges them.
 */
export const conditionsSnapshotSchema = z.object({
  /** One-minute load average. */
  load_avg_1m: z.number().nonnegative().optional(),
  /** `MemAvailable`, in kB: on unified-memory hardware the only memory sensor there is. */
  mem_available_kb: count.optional(),
  /** What waited on the owner when the run began, per store. */
  backlog: perStore(backlogStoreSchema).optional(),
  /** What the run itself added to and cleared from each store. */
  backlog_delta: perStore(storeFlowSchema).optional(),
  /** The largest prompt over the run's turns, in tokens — a maximum, never a sum. */
  peak_prompt_tokens: count.optional(),
  /** The largest share of the context window a prompt took over the run's turns. */
  peak_context_pressure: z.number().nonnegative().optional(),
  /** Each pending commitment with its guilt, grouped by store; absent without a charter. */
  commitments: perStore(commitmentsStoreSchema).optional(),
  /** The largest per-commitment guilt: a readout, which nothing decides on. */
  anticipated_guilt: z.number().nonnegative().optional(),
  /** Readings of the sensored charter lines; absent when the charter could not be loaded. */
  charter: z.array(charterReadingSchema).max(64).optional(),
  /** The stores withdrawn from the run as saturated. */
  withdrawn_saturated: z.array(storeSchema).max(3).optional(),
  /** Why a field is absent, keyed by its path (`load_avg_1m`, `commitments.outbox`, …). */
  unread: z.record(z.string().regex(/^[a-z0-9_.]{1,64}$/), z.string().max(500)).optional(),
});
/** See {@link conditionsSnapshotSchema}. */
export type ConditionsSnapshot = z.infer<typeof conditionsSnapshotSchema>;
/** One entry of a snapshot's `charter` readings. */
export type CharterReadingRecord = z.infer<typeof charterReadingSchema>;
/** One entry of a snapshot's `commitments`. */
export type CommitmentRecord = z.infer<typeof commitmentSchema>;
/** One store's entry of a snapshot's `backlog_delta`. */
export type StoreFlowRecord = z.infer<typeof storeFlowSchema>;

/**
 * How one brief field was filled: `read` whole, `partial` (a count may be short), `unread`
 * with its reason, or one of the states that are not failures (`no_anchor`, `not_a_task`,
 * `not_local`).
 */
const briefFieldSchema = z.object({
  state: z.enum(['read', 'partial', 'unread', 'no_anchor', 'not_a_task', 'not_local']),
  reason: z.string().max(500).optional(),
});

/**
 * The situation brief a run recorded: the words exactly as rendered, whether they were sent to
 * the model, and the read state of every field so `sessions health` can say how complete it is.
 */
export const situationBriefSchema = z.object({
  text: z.string().max(20_000),
  delivered: z.boolean().optional(),
  /**
   * The planning guidance written beside the brief when its conditions held (a commitment a
   * charter line weighs past its patience, or goal drift recorded earlier in the session), and
   * whether it was delivered (`[agent] planning_guidance`). Absent when they did not hold.
   */
  guidance: z
    .object({
      text: z.string().max(2_000),
      reasons: z.array(z.enum(['commitment_past_patience', 'goal_drift'])).max(2),
      delivered: z.boolean(),
    })
    .optional(),
  fields: z.object({
    goal: briefFieldSchema,
    attempts: briefFieldSchema,
    board: briefFieldSchema,
    commitments: briefFieldSchema,
    time: briefFieldSchema,
    seats: briefFieldSchema,
    runs: briefFieldSchema,
    slots: briefFieldSchema,
    voice: briefFieldSchema,
    budget: briefFieldSchema,
  }),
});
/** See {@link situationBriefSchema}. */
export type SituationBriefRecord = z.infer<typeof situationBriefSchema>;
/** The read state of one brief field. */
export type BriefFieldRecord = z.infer<typeof briefFieldSchema>;
