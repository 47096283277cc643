import type { GoalError, Label } from '../schemas/goal-error.js';
import type { OwnerOutcomeRecord } from '../schemas/learning.js';

/** What the owner reported after a delivery, as the label reads it. */
export type OwnerOutcomeKind = OwnerOutcomeRecord['kind'];

/** One linked owner outcome, looked up by its id from an error citing it. */
export interface OwnerOutcomeFact {
  readonly kind: OwnerOutcomeKind;
  /** Whether it names the recorded commitment (a request or question) it went against. */
  readonly commitment: boolean;
}

/**
 * The facts a label needs besides the errors: whether a run compacted, which charter lines
 * exist (pride needs one), and the linked owner outcomes an error may cite, by outcome id.
 */
export interface LabelFacts {
  readonly compacted: boolean;
  readonly charterLineIds: ReadonlySet<string>;
  readonly ownerOutcomes?: ReadonlyMap<string, OwnerOutcomeFact>;
}

/** The name of one step of {@link labelRules}. */
export type LabelRuleId =
  | 'compacted'
  | 'irrelevant'
  | 'anger'
  | 'embarrassment'
  | 'guilt'
  | 'frustration'
  | 'regret'
  | 'disappointment'
  | 'distress'
  | 'pride'
  | 'positive';

/** One step of the derivation: the label it names and when it applies, in words. */
export interface LabelRule {
  readonly id: LabelRuleId;
  readonly label: Label;
  readonly when: string;
}

/**
 * The derivation in order: the first rule that holds names the label. `deriveLabel` walks this
 * list, so the order documented in `docs/appraisal.md` (generated from it) is the order run.
 */
export const labelRules: readonly LabelRule[] = [
  {
    id: 'compacted',
    label: 'neutral',
    when: 'A run compacted: its interventions cannot be scoped, so the label reads neutral outright and the valence is partial.',
  },
  {
    id: 'irrelevant',
    label: 'neutral',
    when: 'Relevance first: no error carries a non-zero sign, so nothing bears on a goal.',
  },
  {
    id: 'anger',
    label: 'anger',
    when: 'A dominant negative was caused by another party or the world (agency is read before exposure).',
  },
  {
    id: 'embarrassment',
    label: 'embarrassment',
    when: 'A dominant negative cites a linked owner outcome reporting a confirmed error, in a message that reached its recipient unchanged (visible).',
  },
  {
    id: 'guilt',
    label: 'guilt',
    when: 'A dominant negative cites a linked owner outcome reporting an adverse impact against a recorded commitment, in a message that reached its recipient unchanged.',
  },
  {
    id: 'frustration',
    label: 'frustration',
    when: 'Two or more distinct self-caused, probe-resolved dominant negatives of one kind (channel and cite kind) on one identified goal.',
  },
  {
    id: 'regret',
    label: 'regret',
    when: 'A self-caused dominant negative whose probe established an alternative (controllable true).',
  },
  {
    id: 'disappointment',
    label: 'disappointment',
    when: 'A dominant negative whose probe established no alternative (controllable false).',
  },
  {
    id: 'distress',
    label: 'distress',
    when: 'Any other negative: a signed, attributed error a probe has not split.',
  },
  {
    id: 'pride',
    label: 'pride',
    when: 'Positive only, with a delivery (a draft sent unchanged, or an answered question followed by completion) attributed to a charter line that exists.',
  },
  {
    id: 'positive',
    label: 'neutral',
    when: 'Positive only, without such a delivery: the valence still shows it.',
  },
];

/** The errors a rule reads: the dominant negatives, and the positives when there are none. */
interface Reading {
  readonly relevant: number;
  readonly dominant: readonly GoalError[];
  readonly positives: readonly GoalError[];
}

function outcomeOf(error: GoalError, facts: LabelFacts): OwnerOutcomeFact | undefined {
  return error.cite.kind === 'outcome'
    ? facts.ownerOutcomes?.get(error.cite.outcome_id)
    : undefined;
}

function citeKey(error: GoalError): string {
  return JSON.stringify(Object.entries(error.cite).sort());
}

function kindOf(error: GoalError): string {
  const cite = error.cite;
  const name = cite.kind === 'counter' || cite.kind === 'setpoint' ? `:${cite.name}` : '';
  return `${error.channel}:${cite.kind}${name}`;
}

function repeated(dominant: readonly GoalError[]): boolean {
  const groups = new Map<string, Set<string>>();
  for (const error of dominant) {
    if (error.agency !== 'self' || error.controllable === 'unfilled') continue;
    if (error.goal?.id === undefined) continue;
    const key = `${error.goal.kind}:${error.goal.id}|${kindOf(error)}`;
    const cites = groups.get(key) ?? new Set<string>();
    cites.add(citeKey(error));
    if (cites.size >= 2) return true;
    groups.set(key, cites);
  }
  return false;
}

function isAttributedDelivery(error: GoalError, facts: LabelFacts): boolean {
  const delivery =
    (error.channel === 'edit' && error.cite.kind === 'draft') ||
    (error.channel === 'commitment' && error.cite.kind === 'question');
  const line = error.goal?.kind === 'charter' ? error.goal.id : undefined;
  return delivery && line !== undefined && facts.charterLineIds.has(line);
}

const predicates: Record<LabelRuleId, (reading: Reading, facts: LabelFacts) => boolean> = {
  compacted: (_, facts) => facts.compacted,
  irrelevant: (reading) => reading.relevant === 0,
  anger: (reading) =>
    reading.dominant.some((error) => error.agency === 'other' || error.agency === 'world'),
  embarrassment: (reading, facts) =>
    reading.dominant.some(
      (error) => error.visible && outcomeOf(error, facts)?.kind === 'confirmed_error',
    ),
  guilt: (reading, facts) =>
    reading.dominant.some((error) => {
      const outcome = outcomeOf(error, facts);
      return error.visible && outcome?.kind === 'adverse_impact' && outcome.commitment;
    }),
  frustration: (reading) => repeated(reading.dominant),
  regret: (reading) =>
    reading.dominant.some((error) => error.agency === 'self' && error.controllable === true),
  disappointment: (reading) => reading.dominant.some((error) => error.controllable === false),
  distress: (reading) => reading.dominant.length > 0,
  pride: (reading, facts) =>
    reading.dominant.length === 0 &&
    reading.positives.some((error) => isAttributedDelivery(error, facts)),
  positive: () => true,
};

/**
 * Reduces magnitude-first: when any relevant error is negative, only the dominant negatives —
 * those at the largest negative magnitude — are read; smaller negatives and every positive
 * never change the word. With no negative, the positives are read.
 */
function read(errors: readonly GoalError[]): Reading {
  let relevant = 0;
  let largest = 0;
  for (const error of errors) {
    if (error.sign === 0) continue;
    relevant += 1;
    if (-error.sign > largest) largest = -error.sign;
  }
  if (largest > 0) {
    return {
      relevant,
      dominant: errors.filter((error) => -error.sign === largest),
      positives: [],
    };
  }
  return { relevant, dominant: [], positives: errors.filter((error) => error.sign > 0) };
}

/**
 * Derives the label from signed errors alone; no model is ever in this path, and no field a
 * model writes reaches it. Relevance gates first, then sign and agency (agency before
 * exposure); a probe-filled `controllable` only refines a word, it is never a precondition.
 */
export function deriveLabel(errors: readonly GoalError[], facts: LabelFacts): Label {
  const reading = read(errors);
  return labelRules.find((rule) => predicates[rule.id](reading, facts))?.label ?? 'neutral';
}
