import { z } from 'zod';

/**
 * What a harness feeds the self-image audit, as JSON: each skill's soft self-grade and its
 * verified attempts, and optionally the strengths it publishes.
 */
export const selfImageInputSchema = z.object({
  skills: z.array(
    z
      .object({
        skill: z.string().min(1),
        selfGrade: z.number().min(0).max(1),
        attempts: z.number().int().min(0),
        verifiedSuccesses: z.number().int().min(0),
      })
      .refine((skill) => skill.verifiedSuccesses <= skill.attempts, {
        message: 'verifiedSuccesses cannot exceed attempts',
      }),
  ),
  published: z.array(z.string()).optional(),
});

/** The self-image audit's input. */
export type SelfImageInput = z.infer<typeof selfImageInputSchema>;
