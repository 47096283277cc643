import { z } from 'zod';
import { goalRefSchema } from './goal-error.js';
import { actorSchema, idSchema, taintSchema, timestampSchema } from './primitives.js';

/** A draft the run staged in the outbox, waiting on the owner. */
export const draftStagedSchema = z.object({
  v: z.literal(1),
  type: z.literal('staged'),
  at: timestampSchema,
  draft_id: idSchema,
  session_id: idSchema,
  run_id: idSchema.optional(),
  /** The tool that would send it (`mail_send`, `slack_post`, …). */
  tool: z.string().min(1).max(128),
  /** Whether third-party text was in the conversation when it was written. */
  taint: taintSchema,
  goal: goalRefSchema.optional(),
  text: z.string().optional(),
});

const outcomeFields = {
  type: z.literal('outcome'),
  at: timestampSchema,
  draft_id: idSchema,
  outcome: z.enum(['sent_unchanged', 'sent_edited', 'rejected', 'cancelled']),
  /** The owner's reason for a rejection, in their words; it goes to the reflector, never to a score. */
  reason: z.string().max(4000).optional(),
  /**
   * For `sent_edited`: the words that went out, as the owner edited them (line endings `\n`).
   * Absent on edits recorded before mecha kept them, and on every other outcome. An older
   * reader drops the field and reads the rest unchanged, so it needs no new version.
   */
  text: z.string().min(1).optional(),
};

/** Version 1 outcomes predate the record of who acted; they read as `sender: 'unrecorded'`. */
const draftOutcomeV1Schema = z
  .object({ v: z.literal(1), ...outcomeFields })
  .transform((record) => ({ ...record, v: 2 as const, sender: 'unrecorded' as const }));

/** What became of a draft, and who did it: the owner, a run's shell, or unrecorded. */
export const draftOutcomeSchema = z.object({
  v: z.literal(2),
  ...outcomeFields,
  sender: actorSchema,
});

/** One line of the outbox log. Older outcome versions are upgraded on read. */
export const outboxRecordSchema = z.union([
  draftStagedSchema,
  draftOutcomeSchema,
  draftOutcomeV1Schema,
]);
/** See {@link outboxRecordSchema}. */
export type OutboxRecord = z.output<typeof outboxRecordSchema>;
/** See {@link draftStagedSchema}. */
export type DraftStaged = z.infer<typeof draftStagedSchema>;
/** See {@link draftOutcomeSchema}. */
export type DraftOutcome = z.infer<typeof draftOutcomeSchema>;
