import type { Cite, GoalRef } from '../schemas/goal-error.js';
import type { GoalOutcome } from '../schemas/learning.js';

// How every surface writes a signed entry's parts (the CLI, the web board, Slack): one place,
// so a sign, a cite, a goal or a judgment's outcome never reads two ways.

/** A sign as every surface writes it: `+1.0`, `−0.5` (a true minus), `±0` for a zero entry. */
export function formatSign(sign: number): string {
  if (sign > 0) return `+${sign.toFixed(1)}`;
  if (sign < 0) return `\u2212${(-sign).toFixed(1)}`;
  return '\u00b10';
}

/** A cite as a pointer: `turn 4`, `draft d-7f3e`, `counter loop_stop`. */
export function citeText(cite: Cite): string {
  switch (cite.kind) {
    case 'turn':
      return `turn ${cite.turn}`;
    case 'draft':
      return `draft ${cite.draft_id}`;
    case 'counter':
      return `counter ${cite.name}`;
    case 'setpoint':
      return `setpoint ${cite.name}`;
    case 'question':
      return `question ${cite.question_id}`;
    case 'request':
      return `request ${cite.request_id}`;
    case 'closure':
      return `closure ${cite.closure_id}`;
    case 'workflow':
      return `workflow ${cite.workflow_id}`;
    case 'reflection':
      return `reflection ${cite.reflection_id}`;
    case 'outcome':
      return `owner outcome ${cite.outcome_id}`;
    case 'comparison':
      return `comparison ${cite.comparison_id}`;
    case 'appraiser':
      return 'the retired appraiser';
  }
}

/** A goal pointer: `task task-1`, `charter line replies`. */
export function goalText(goal: GoalRef | undefined): string {
  if (goal === undefined) return 'no goal';
  const kind = goal.kind === 'charter' ? 'charter line' : goal.kind;
  return goal.id === undefined ? kind : `${kind} ${goal.id}`;
}

/** How a text appraisal judged a session for a goal, in words: `went well`, `went badly`. */
export function outcomeText(outcome: GoalOutcome): string {
  switch (outcome) {
    case 'went_well':
      return 'went well';
    case 'went_badly':
      return 'went badly';
    case 'mixed':
      return 'mixed';
    case 'unclear':
      return 'unclear';
  }
}
