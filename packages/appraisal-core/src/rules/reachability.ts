import { type Label, labelSchema } from '../schemas/goal-error.js';

/** What can produce a label today. */
export type Producer =
  | 'free live readout'
  | 'free offline readout'
  | 'probe'
  | 'linked owner outcome'
  | 'none';

/** Which producers reach one label, and a pointer-free note on how. */
export interface LabelReach {
  readonly producers: readonly Producer[];
  readonly how: string;
}

/**
 * Each label's producers today. Typed against every label, so a new variant fails to compile
 * until it says what produces it; the readout's "N of the 11 variants" line is derived here.
 */
export const reachability = {
  neutral: {
    producers: ['free live readout', 'free offline readout'],
    how: 'No label is supported, a positive without an attributed delivery, or a compacted run.',
  },
  distress: {
    producers: ['free live readout', 'free offline readout'],
    how: 'A relevant negative a probe has not split: a rejected draft, a ceiling stop, a steer.',
  },
  anger: {
    producers: ['none'],
    how: 'Its one producer, the counts-only appraiser, is retired; an old verdict of another’s or the world’s still reads as anger.',
  },
  regret: {
    producers: ['probe'],
    how: 'The counterfactual probe (`sessions appraise --probe`) found a steer or denial load-bearing: the arm without it went elsewhere.',
  },
  disappointment: {
    producers: ['probe'],
    how: 'The counterfactual probe found the run got there anyway: the arm without the intervention made the same calls.',
  },
  frustration: {
    producers: ['probe'],
    how: 'Two or more probe-resolved steers or denials (or other self-caused errors of one kind) on one identified goal.',
  },
  pride: {
    producers: ['free offline readout'],
    how: 'A draft sent unchanged, or an answered question followed by completion, attributed to a charter line that exists.',
  },
  embarrassment: {
    producers: ['linked owner outcome'],
    how: 'A confirmed error in mecha’s unchanged message, reported after delivery.',
  },
  guilt: {
    producers: ['linked owner outcome'],
    how: 'An adverse impact against a recorded commitment, reported after delivery.',
  },
  shame: { producers: ['none'], how: 'No cross-run harm aggregate yet.' },
  excitement: { producers: ['none'], how: 'No anticipatory appraisal yet.' },
} satisfies Record<Label, LabelReach>;

/** The labels some producer in `producers` reaches, in the order the label enum declares. */
export function reachableLabels(producers: readonly Producer[]): Label[] {
  const wanted = new Set<Producer>(producers);
  return labelSchema.options.filter((label) => {
    const reach: LabelReach = reachability[label];
    return reach.producers.some((producer) => wanted.has(producer));
  });
}

const free: readonly Producer[] = ['free live readout', 'free offline readout'];

/**
 * The readout's reachability line, derived from {@link reachability} (it shipped stale twice
 * as a hand-typed literal): how many of the variants the free readout reaches, how many only
 * a probe or a linked owner outcome reaches, and which have no producer.
 */
export function reachabilityLine(): string {
  const total = labelSchema.options.length;
  const freely = reachableLabels(free);
  const paid = reachableLabels(['probe', 'linked owner outcome']).filter(
    (label) => !freely.includes(label),
  );
  const reached = new Set([...freely, ...paid]);
  const unreached = labelSchema.options.filter((label) => !reached.has(label));
  return (
    `${freely.length} of the ${total} variants reachable by the free readout (${freely.join(', ')}); ` +
    `${paid.length} more only by a probe or a linked owner outcome (${paid.join(', ')}); ` +
    `${unreached.length} with no producer today (${unreached.join(', ')})`
  );
}
