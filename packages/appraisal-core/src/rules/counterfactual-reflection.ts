import type {
  ComparisonArm,
  ComparisonRecord,
  CounterfactualQuote,
  CounterfactualRecord,
} from '../schemas/comparisons.js';
import type { TextAppraisalRecord } from '../schemas/learning.js';

/**
 * What a decided comparison says that a reflection may quote: its moment, point, validator and
 * the arms that lost (did what the owner refused) and won. Only a separated comparison decided
 * by its validator, with the detail to quote, has one; a tie, an undecided or unposed moment,
 * or an old record without arms writes no reflection.
 */
export function quoteOf(comparison: ComparisonRecord): CounterfactualQuote | undefined {
  if (comparison.verdict !== 'separated' || comparison.decided_by !== 'validator') return undefined;
  const { validator, point, arms } = comparison;
  if (validator === undefined || point === undefined || arms === undefined) return undefined;
  const lost = arms.filter((arm) => arm.result === 'did_refused');
  const won = arms.filter((arm) => arm.result === 'did_not');
  if (lost.length === 0 || won.length === 0) return undefined;
  return {
    moment: comparison.moment,
    verdict: 'separated',
    validator,
    point,
    lost,
    won,
    ...(comparison.model === undefined ? {} : { model: comparison.model }),
  };
}

const momentWords: Record<string, string> = {
  steer: 'a steer',
  refusal: 'a call the owner denied',
  draft_rewritten: 'a draft the owner rewrote',
  draft_rejected: 'a draft the owner rejected',
};

const lostWords: Record<CounterfactualQuote['validator'], [string, string]> = {
  rejected_draft: ['the arm drafted the text the owner rejected', 'the arm did not draft it'],
  rewritten_draft: ['the arm drafted the text the owner rewrote', 'the arm did not draft it'],
  denied_call: ['the arm made the call the owner denied', 'the arm did not make it'],
  steered_call: ['the arm made the call the owner steered away from', 'the arm did not make it'],
};

const validatorWords: Record<CounterfactualQuote['validator'], string> = {
  rejected_draft: 'the rejected-draft validator',
  rewritten_draft: 'the rewritten-draft validator',
  denied_call: 'the denied-call validator',
  steered_call: 'the steered-call validator',
};

function policyWords(arm: ComparisonArm): string {
  const digest = arm.prompt_digest === undefined ? '' : ` (prompt ${arm.prompt_digest})`;
  switch (arm.prompt) {
    case 'covering':
      return `under the system prompt that covered the moment${digest}`;
    case 'first':
      return `under the session’s first system prompt${digest}`;
    case 'none':
      return 'under no system prompt';
  }
}

function pointWords(quote: CounterfactualQuote): string {
  const parts = [
    quote.point.turn === undefined ? undefined : `message ${quote.point.turn}`,
    quote.point.call === undefined ? undefined : `call ${quote.point.call}`,
    quote.point.draft_id === undefined ? undefined : `draft ${quote.point.draft_id}`,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/**
 * A counterfactual reflection, worded by mecha from a comparison's quote alone: the moment,
 * which policies lost and which won, the validator that decided it, and the comparison's id.
 * No model writes it, and neither the owner's text nor a draft's is in it.
 */
export function reflectionText(quote: CounterfactualQuote, comparisonId: string): string {
  const [did, didNot] = lostWords[quote.validator];
  const side = (arms: readonly ComparisonArm[], what: string) =>
    arms.map((arm) => `${policyWords(arm)}, ${what}`).join('; ');
  return (
    `Counterfactual at ${momentWords[quote.moment] ?? quote.moment}${pointWords(quote)}. ` +
    `Lost: ${side(quote.lost, did)}. Won: ${side(quote.won, didNot)}. ` +
    `Decided by ${validatorWords[quote.validator]} against the owner’s recorded act; comparison ${comparisonId}.`
  );
}

/** Whether a reflection still points at what it says: its comparison, unchanged. */
export type Dereference =
  | { readonly state: 'dereferences' }
  | { readonly state: 'missing' }
  | { readonly state: 'changed' };

/**
 * Checks a reflection against the comparison store: the comparison it names must still be on
 * record and still say what the reflection quotes. An edited or removed comparison does not
 * dereference; a reflection that recorded no quote only needs its comparison on record.
 */
export function dereference(
  reflection: CounterfactualRecord,
  comparisons: readonly ComparisonRecord[],
): Dereference {
  const found = comparisons.filter(
    (comparison) => comparison.comparison_id === reflection.comparison_id,
  );
  if (found.length === 0) return { state: 'missing' };
  if (reflection.quoted === undefined) return { state: 'dereferences' };
  const quoted = stable(reflection.quoted);
  return found.some((comparison) => {
    const quote = quoteOf(comparison);
    return quote !== undefined && stable(quote) === quoted;
  })
    ? { state: 'dereferences' }
    : { state: 'changed' };
}

function stable(value: unknown): string {
  return JSON.stringify(value, (_, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

/**
 * The counterfactual reflections a distill pass adds: one per decided (separated) comparison
 * not yet reflected, for a session that has a text appraisal — it carries the newest
 * appraisal's taint. A comparison of a session without an appraisal waits for a later pass.
 * Each comparison is added once; nothing on record is rewritten.
 */
export function pendingReflections(input: {
  readonly comparisons: readonly ComparisonRecord[];
  readonly reflections: readonly CounterfactualRecord[];
  readonly appraisals: readonly TextAppraisalRecord[];
  readonly now: Date;
  readonly newId: () => string;
}): { readonly add: CounterfactualRecord[]; readonly waiting: number } {
  const done = new Set(input.reflections.map((reflection) => reflection.comparison_id));
  const newest = new Map<string, TextAppraisalRecord>();
  for (const appraisal of input.appraisals) {
    const held = newest.get(appraisal.session_id);
    if (held === undefined || Date.parse(appraisal.at) >= Date.parse(held.at)) {
      newest.set(appraisal.session_id, appraisal);
    }
  }
  const add: CounterfactualRecord[] = [];
  let waiting = 0;
  for (const comparison of input.comparisons) {
    if (done.has(comparison.comparison_id)) continue;
    const quote = quoteOf(comparison);
    if (quote === undefined) continue;
    const appraisal = newest.get(comparison.session_id);
    if (appraisal === undefined) {
      waiting += 1;
      continue;
    }
    done.add(comparison.comparison_id);
    add.push({
      v: 1,
      reflection_id: input.newId(),
      at: input.now.toISOString(),
      session_id: comparison.session_id,
      comparison_id: comparison.comparison_id,
      taint: appraisal.taint,
      text: reflectionText(quote, comparison.comparison_id),
      quoted: quote,
    });
  }
  return { add, waiting };
}
