import type { ConditionsSnapshot } from '@mecha/appraisal-core';
import { commitmentStores } from '@mecha/charter';

/** Why planning guidance was written: what the records showed, never a number. */
export type GuidanceReason = 'commitment_past_patience' | 'goal_drift';

/** The guidance for one run: the words to put after the brief, and why they were written. */
export interface PlanningGuidance {
  readonly text: string;
  readonly reasons: readonly GuidanceReason[];
}

const words: Readonly<Record<GuidanceReason, string>> = {
  commitment_past_patience:
    "Something the owner's charter weighs has waited past the owner's patience: review whether your plan should attend to it.",
  goal_drift:
    'This session recorded goal drift: reconcile your plan with the confirmed goal before going on.',
};

/**
 * The one in-run reader of the appraisal's sensors: guidance asking the model to review its
 * plan, written only when a commitment weighed by a charter line is past its patience, or
 * when goal drift was recorded earlier in the session. It never shows a number, never asks
 * the owner anything, and never rewrites the plan; the model decides what to do with it.
 * A store whose commitments could not be read gives no reason either way.
 */
export function planningGuidance(input: {
  readonly conditions: ConditionsSnapshot | undefined;
  readonly goalDrift: boolean;
}): PlanningGuidance | undefined {
  const reasons: GuidanceReason[] = [];
  const commitments = input.conditions?.commitments;
  const pastPatience = commitmentStores.some((store) =>
    (commitments?.[store]?.items ?? []).some(
      (item) => item.owed && item.past_patience && item.line !== undefined,
    ),
  );
  if (pastPatience) reasons.push('commitment_past_patience');
  if (input.goalDrift) reasons.push('goal_drift');
  if (reasons.length === 0) return undefined;
  return {
    text: `Planning guidance from the harness: ${reasons.map((reason) => words[reason]).join(' ')}`,
    reasons,
  };
}
