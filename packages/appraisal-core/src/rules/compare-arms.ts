import type { ArmOutcome } from '../ports/replayer.js';
import type { ComparisonArm, ComparisonRecord } from '../schemas/comparisons.js';
import type { Refused } from './decided-moments.js';

function normalised(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/**
 * The validator that fits a moment, applied to one arm: did it do what the owner refused — draft
 * the text the owner rejected or rewrote (whitespace aside), or make the call the owner denied
 * or steered away from (same tool, same target)? An arm that failed to run is ungraded.
 */
export function validateArm(refused: Refused, arm: ArmOutcome): ComparisonArm['result'] {
  if (arm.state === 'failed') return 'ungraded';
  if (refused.kind === 'draft') {
    const text = normalised(refused.text);
    return arm.drafts.some((draft) => normalised(draft.text) === text) ? 'did_refused' : 'did_not';
  }
  return arm.calls.some(
    (call) => call.tool === refused.tool && (call.target ?? undefined) === refused.target,
  )
    ? 'did_refused'
    : 'did_not';
}

/**
 * A comparison's verdict from its graded arms: `separated` when at least one arm did what the
 * owner refused and another did not (the first lost), `tied` when every graded arm did the
 * same, `inconclusive` when fewer than two arms could be graded.
 */
export function comparisonVerdict(
  results: readonly ComparisonArm['result'][],
): Extract<ComparisonRecord['verdict'], 'separated' | 'tied' | 'inconclusive'> {
  const graded = results.filter((result) => result !== 'ungraded');
  if (graded.length < 2) return 'inconclusive';
  return graded.includes('did_refused') && graded.includes('did_not') ? 'separated' : 'tied';
}
