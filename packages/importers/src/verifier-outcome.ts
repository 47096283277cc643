import { z } from 'zod';

/**
 * Why a verdict was not measured: the verifier assigned it without running the task's tests
 * (no patch to apply, a patch that did not apply). Such an outcome is synthetic: it is counted
 * and reported, never used as a measured verdict.
 */
export const syntheticReasonSchema = z.enum(['no_patch', 'patch_not_applied']);
/** See {@link syntheticReasonSchema}. */
export type SyntheticReason = z.infer<typeof syntheticReasonSchema>;

/**
 * A benchmark verifier's outcome for one trial. It is kept apart from the trial's session: it is
 * not an owner act, it is never written to a store the appraisal reads, and the readout of the
 * session is derived without it.
 */
export const verifierOutcomeSchema = z.object({
  v: z.literal(1),
  /** The trial: a SWE-bench instance id, or a Harbor trial's folder name. */
  trial: z.string().min(1),
  benchmark: z.enum(['swe-bench', 'harbor']),
  verdict: z.enum(['passed', 'failed']),
  /** The verifier's reward where it gives one (Harbor); null where it gives a verdict only. */
  reward: z.number().nullable(),
  /** Set when the verdict was assigned without the tests running (see `syntheticReasonSchema`). */
  synthetic: syntheticReasonSchema.nullable(),
  /** The file the outcome was read from, relative to the jobs folder. */
  source: z.string(),
});
/** See {@link verifierOutcomeSchema}. */
export type VerifierOutcome = z.infer<typeof verifierOutcomeSchema>;

const instanceReport = z.looseObject({
  resolved: z.boolean(),
  patch_is_None: z.boolean().optional(),
  patch_exists: z.boolean().optional(),
  patch_successfully_applied: z.boolean().optional(),
});

/** What reading one SWE-bench `report.json` gave. */
export type ReportReading =
  | { readonly kind: 'read'; readonly outcome: VerifierOutcome }
  | { readonly kind: 'unreadable'; readonly reason: string };

/**
 * Reads a SWE-bench evaluation `report.json` for `trial`: either the per-instance report
 * (`{"resolved": …}`) or the harness's form keyed by instance id (`{"<id>": {"resolved": …}}`).
 * `resolved` is the verdict; a report with no patch, or a patch that did not apply, is a
 * synthetic failure (the tests never ran).
 */
export function readSweBenchReport(record: unknown, trial: string, source: string): ReportReading {
  const keyed =
    typeof record === 'object' && record !== null && trial in record
      ? (record as Record<string, unknown>)[trial]
      : record;
  const report = instanceReport.safeParse(keyed);
  if (!report.success) {
    return { kind: 'unreadable', reason: 'no "resolved" verdict in the report' };
  }
  const { resolved, patch_is_None, patch_exists, patch_successfully_applied } = report.data;
  const synthetic: SyntheticReason | null =
    patch_is_None === true || patch_exists === false
      ? 'no_patch'
      : patch_successfully_applied === false
        ? 'patch_not_applied'
        : null;
  return {
    kind: 'read',
    outcome: {
      v: 1,
      trial,
      benchmark: 'swe-bench',
      verdict: resolved ? 'passed' : 'failed',
      reward: null,
      synthetic,
      source,
    },
  };
}
