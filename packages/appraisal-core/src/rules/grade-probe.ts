import type { ArmOutcome } from '../ports/replayer.js';
import type { StopCause } from '../schemas/transcript.js';
import type { RecordedResult } from './probe-points.js';

/**
 * A probe's finding: the intervention was load-bearing (`mattered`, an alternative existed:
 * regret), the run got there anyway (`redundant`: disappointment), or the arm posed no
 * question (`inconclusive`: the label stays distress).
 */
export type ProbeFinding = 'mattered' | 'redundant' | 'inconclusive';

/** Ends that say the arm went wrong without the intervention: the steer was needed. */
const wentWrong: ReadonlySet<StopCause> = new Set<StopCause>([
  'loop',
  'turn_ceiling',
  'token_ceiling',
  'cost_ceiling',
  'failed_call',
  'stopped',
]);

function callKey(call: { readonly tool: string; readonly target?: string | undefined }): string {
  return JSON.stringify([call.tool, call.target ?? null]);
}

/**
 * Grades one arm against the recorded run: `redundant` when the arm, with the intervention
 * removed, completed and made every call the run made after it; `mattered` when it completed
 * without one of them or ended the way a run goes wrong; `inconclusive` when it failed to run
 * or ended without a verdict (an error, empty output, a shutdown, a park). Only a gradeable
 * recorded result is ever graded; skipped points never reach here.
 */
export function gradeProbe(
  recorded: Extract<RecordedResult, { state: 'gradeable' }>,
  arm: ArmOutcome,
): ProbeFinding {
  if (arm.state === 'failed') return 'inconclusive';
  if (wentWrong.has(arm.stop_cause)) return 'mattered';
  if (arm.stop_cause !== 'completed') return 'inconclusive';
  const made = new Set(arm.calls.map(callKey));
  return recorded.calls.every((call) => made.has(callKey(call))) ? 'redundant' : 'mattered';
}
