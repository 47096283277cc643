import { z } from 'zod';
import { taskStatusSchema } from './board.js';
import { idSchema, timestampSchema } from './primitives.js';
import { surfaceSchema } from './transcript.js';

const closureFields = {
  closure_id: idSchema,
  at: timestampSchema,
  task_id: idSchema,
  from: taskStatusSchema,
  to: taskStatusSchema,
  surface: surfaceSchema,
  /** The sessions that did the task's work; the closure signs on each of them. */
  session_ids: z.array(idSchema).max(256),
  /** For a reopen: the closure it undoes. */
  reopens: idSchema.optional(),
  /** For a reopen by the owner: their reason, in their words. */
  reason: z.string().max(4000).optional(),
  /** mecha's appraisal line, written beside the move so other surfaces can show it. */
  appraisal_line: z.string().max(500).optional(),
};

/** Version 1 closures predate the record of who closed; they read as `who: 'unknown'`. */
const closureV1Schema = z.object({ v: z.literal(1), ...closureFields }).transform((record) => ({
  ...record,
  v: 2 as const,
  who: 'unknown' as const,
  person_present: false,
}));

/**
 * One closure or reopen of a board task, written to `closures/closures.jsonl` before the
 * board changes: which task, from and to which status, who, on which surface.
 */
export const closureRecordSchema = z.union([
  z.object({
    v: z.literal(2),
    ...closureFields,
    who: z.enum(['owner', 'agent_with_approval', 'unknown']),
    person_present: z.boolean(),
  }),
  closureV1Schema,
]);
/** See {@link closureRecordSchema}. */
export type ClosureRecord = z.output<typeof closureRecordSchema>;
