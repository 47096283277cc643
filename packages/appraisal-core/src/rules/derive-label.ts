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

/**
 * One step of the derivation: the label it names, when it applies (for the docs), and the same
 * condition said to the owner in a few words (for the surfaces' one-line reason).
 */
export interface LabelRule {
  readonly id: LabelRuleId;
  readonly label: Label;
  readonly when: string;
  readonly because: string;
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
    because: 'a run compacted, so its steers cannot be scoped and the label stays neutral',
  },
  {
    id: 'irrelevant',
    label: 'neutral',
    when: 'Relevance first: no error carries a non-zero sign, so nothing bears on a goal.',
    because: 'nothing recorded bore on a goal',
  },
  {
    id: 'anger',
    label: 'anger',
    when: 'A dominant negative was caused by another party or the world (agency is read before exposure).',
    because: 'the worst outcome was caused by another party or the world',
  },
  {
    id: 'embarrassment',
    label: 'embarrassment',
    when: 'A dominant negative cites a linked owner outcome reporting a confirmed error, in a message that reached its recipient unchanged (visible).',
    because: 'an error you confirmed was in a message that reached its recipient unchanged',
  },
  {
    id: 'guilt',
    label: 'guilt',
    when: 'A dominant negative cites a linked owner outcome reporting an adverse impact against a recorded commitment, in a message that reached its recipient unchanged.',
    because: 'a message that reached its recipient unchanged did harm against a commitment',
  },
  {
    id: 'frustration',
    label: 'frustration',
    when: 'Two or more distinct self-caused, probe-resolved dominant negatives of one kind (channel and cite kind) on one identified goal.',
    because: 'the same kind of self-caused setback happened more than once on one goal',
  },
  {
    id: 'regret',
    label: 'regret',
    when: 'A self-caused dominant negative whose probe established an alternative (controllable true).',
    because: 'a self-caused setback that the probe showed could have gone otherwise',
  },
  {
    id: 'disappointment',
    label: 'disappointment',
    when: 'A dominant negative whose probe established no alternative (controllable false).',
    because: 'a setback that the probe showed could not have gone otherwise',
  },
  {
    id: 'distress',
    label: 'distress',
    when: 'Any other negative: a signed, attributed error a probe has not split.',
    because: 'a negative outcome that no probe has explained',
  },
  {
    id: 'pride',
    label: 'pride',
    when: 'Positive only, with a delivery (a draft sent unchanged, or an answered question followed by completion) attributed to a charter line that exists.',
    because: 'only good outcomes, with a delivery credited to a charter line',
  },
  {
    id: 'positive',
    label: 'neutral',
    when: 'Positive only, without such a delivery: the valence still shows it.',
    because: 'only good outcomes, none of them a delivery credited to a charter line',
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

function isAttributedDelivery(error: GoalError, facts: LabelFacts): boolean {
  const delivery =
    (error.channel === 'edit' && error.cite.kind === 'draft') ||
    (error.channel === 'commitment' && error.cite.kind === 'question');
  const line = error.goal?.kind === 'charter' ? error.goal.id : undefined;
  return delivery && line !== undefined && facts.charterLineIds.has(line);
}

/**
 * Each rule's test. It answers the errors that make it hold (its witnesses; empty for a rule
 * that reads no error) or `undefined` when it does not hold.
 */
type Witnesses = readonly GoalError[] | undefined;

function nonEmpty(errors: readonly GoalError[]): Witnesses {
  return errors.length > 0 ? errors : undefined;
}

function firstRepeat(dominant: readonly GoalError[]): Witnesses {
  const groups = new Map<string, Map<string, GoalError>>();
  for (const error of dominant) {
    if (error.agency !== 'self' || error.controllable === 'unfilled') continue;
    if (error.goal?.id === undefined) continue;
    const key = `${error.goal.kind}:${error.goal.id}|${kindOf(error)}`;
    const cites = groups.get(key) ?? new Map<string, GoalError>();
    if (!cites.has(citeKey(error))) cites.set(citeKey(error), error);
    if (cites.size >= 2) return [...cites.values()];
    groups.set(key, cites);
  }
  return undefined;
}

const predicates: Record<LabelRuleId, (reading: Reading, facts: LabelFacts) => Witnesses> = {
  compacted: (_, facts) => (facts.compacted ? [] : undefined),
  irrelevant: (reading) => (reading.relevant === 0 ? [] : undefined),
  anger: (reading) =>
    nonEmpty(
      reading.dominant.filter((error) => error.agency === 'other' || error.agency === 'world'),
    ),
  embarrassment: (reading, facts) =>
    nonEmpty(
      reading.dominant.filter(
        (error) => error.visible && outcomeOf(error, facts)?.kind === 'confirmed_error',
      ),
    ),
  guilt: (reading, facts) =>
    nonEmpty(
      reading.dominant.filter((error) => {
        const outcome = outcomeOf(error, facts);
        return error.visible && outcome?.kind === 'adverse_impact' && outcome.commitment;
      }),
    ),
  frustration: (reading) => firstRepeat(reading.dominant),
  regret: (reading) =>
    nonEmpty(
      reading.dominant.filter((error) => error.agency === 'self' && error.controllable === true),
    ),
  disappointment: (reading) =>
    nonEmpty(reading.dominant.filter((error) => error.controllable === false)),
  distress: (reading) => nonEmpty(reading.dominant),
  pride: (reading, facts) =>
    reading.dominant.length === 0
      ? nonEmpty(reading.positives.filter((error) => isAttributedDelivery(error, facts)))
      : undefined,
  positive: (reading) => reading.positives,
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

/** Which rule named the label, and the errors that made it hold. */
export interface LabelDerivation {
  readonly rule: LabelRule;
  /** The errors the rule read to fire (none for `compacted` and `irrelevant`). */
  readonly witnesses: readonly GoalError[];
}

/**
 * Walks {@link labelRules} in order and answers the first that holds with its witnesses: the
 * one derivation both the label and every explanation of it read, so they cannot disagree.
 */
export function labelDerivation(errors: readonly GoalError[], facts: LabelFacts): LabelDerivation {
  const reading = read(errors);
  for (const rule of labelRules) {
    const witnesses = predicates[rule.id](reading, facts);
    if (witnesses !== undefined) return { rule, witnesses };
  }
  // `positive` always holds, so the walk never gets here; the type system cannot know that.
  throw new Error('labelDerivation: no rule held');
}

/**
 * Derives the label from signed errors alone; no model is ever in this path, and no field a
 * model writes reaches it. Relevance gates first, then sign and agency (agency before
 * exposure); a probe-filled `controllable` only refines a word, it is never a precondition.
 */
export function deriveLabel(errors: readonly GoalError[], facts: LabelFacts): Label {
  return labelDerivation(errors, facts).rule.label;
}
