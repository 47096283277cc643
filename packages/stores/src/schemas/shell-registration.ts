import { idSchema, timestampSchema } from '@mecha/appraisal-core';
import { z } from 'zod';

/**
 * One shell a run started, in `runs/shells.jsonl`: its process id, the process's start time as
 * the kernel counts it (so a reused pid never inherits the registration), and the run it serves.
 * Presence is read from these, for the caller's own ancestor processes, never from variables a
 * command can unset.
 */
export const shellRegistrationSchema = z.object({
  v: z.literal(1),
  at: timestampSchema,
  pid: z.int().positive(),
  /** Field 22 of `/proc/<pid>/stat` (clock ticks since boot); absent where there is no `/proc`. */
  process_start: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
  session_id: idSchema,
  run_id: idSchema,
});
/** See {@link shellRegistrationSchema}. */
export type ShellRegistration = z.infer<typeof shellRegistrationSchema>;
