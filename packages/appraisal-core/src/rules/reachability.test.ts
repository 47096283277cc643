import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  records,
  type SessionShape,
  sessionShapeArbitrary,
} from '../__fixtures__/evidence-arbitraries.js';
import { appraiseRun } from '../readouts/appraise-run.js';
import { type GoalError, type Label, labelSchema } from '../schemas/goal-error.js';
import { contributions, signedEntries } from './contributions.js';
import { deriveLabel } from './derive-label.js';
import { fillControllable } from './fill-controllable.js';
import { labelFactsFor } from './label-facts-for.js';
import { probeKey } from './probe-points.js';
import { reachability, reachabilityLine, reachableLabels } from './reachability.js';
import { errorsOf } from './signed-entry.js';

const charterLineIds = new Set(['replies', 'invoices']);

type Population = 'free' | 'owner outcomes' | 'probe';

/** A generated session read the way its producer would: free, with owner outcomes, or probed. */
function labelOf(shape: SessionShape, population: Population, fills: readonly boolean[]): Label {
  const session = records(shape, population === 'owner outcomes');
  let errors: readonly GoalError[] = contributions(session).errors;
  if (population === 'probe') {
    // The probe's findings, keyed as `probeCorpus` keys them, fill `controllable` through the
    // same rule the readouts use: on the replayable interventions, steers and denials.
    const { entries } = signedEntries(session);
    const resolved = new Map<string, boolean>();
    entries.forEach((entry, index) => {
      if ((entry.row === 'steer' || entry.row === 'deny') && entry.error.cite.kind === 'turn') {
        resolved.set(
          probeKey(entry.row, entry.error.cite.turn),
          fills[index % fills.length] ?? true,
        );
      }
    });
    errors = errorsOf(fillControllable(entries, resolved));
  }
  return deriveLabel(errors, labelFactsFor(session, charterLineIds));
}

const fillsArbitrary = fc.array(fc.boolean(), { minLength: 1, maxLength: 6 });

/** The labels observed over a fixed sample, so the observation never flakes. */
function observed(population: Population): Set<Label> {
  const sample = fc.sample(fc.tuple(sessionShapeArbitrary, fillsArbitrary), {
    numRuns: 1500,
    seed: 20260925,
  });
  return new Set(sample.map(([shape, fills]) => labelOf(shape, population, fills)));
}

describe('reachability', () => {
  it('declares producers for every label variant and nothing else', () => {
    expect(Object.keys(reachability).sort()).toEqual([...labelSchema.options].sort());
    for (const label of labelSchema.options) {
      expect(reachability[label].producers.length).toBeGreaterThan(0);
    }
  });

  it('derives the readout’s line from the table', () => {
    expect(reachabilityLine()).toBe(
      '3 of the 11 variants reachable by the free readout (neutral, distress, pride); ' +
        '5 more only by a probe or a linked owner outcome (regret, disappointment, frustration, embarrassment, guilt); ' +
        '3 with no producer today (anger, shame, excitement)',
    );
  });

  it('lists the labels a set of producers reaches, in enum order', () => {
    expect(reachableLabels(['free live readout'])).toEqual(['neutral', 'distress']);
    expect(reachableLabels(['free offline readout'])).toEqual(['neutral', 'distress', 'pride']);
    expect(reachableLabels(['none'])).toEqual(['anger', 'shame', 'excitement']);
    expect(reachableLabels([])).toEqual([]);
  });
});

describe('reachability: checked against generated producer-realistic records', () => {
  const cases: readonly [
    Population,
    readonly ('free offline readout' | 'probe' | 'linked owner outcome')[],
  ][] = [
    ['free', ['free offline readout']],
    ['owner outcomes', ['free offline readout', 'linked owner outcome']],
    ['probe', ['free offline readout', 'probe']],
  ];

  it.each(cases)(
    'keeps every %s label inside the declared reachable set',
    (population, producers) => {
      const declared = new Set(reachableLabels(producers));
      fc.assert(
        fc.property(sessionShapeArbitrary, fillsArbitrary, (shape, fills) => {
          expect(declared.has(labelOf(shape, population, fills))).toBe(true);
        }),
      );
    },
  );

  it.each(cases)(
    'observes every label the %s population declares reachable',
    (population, producers) => {
      expect([...observed(population)].sort()).toEqual([...reachableLabels(producers)].sort());
    },
  );

  it('keeps the live readout inside, and across, the labels the free live readout declares', () => {
    const declared = reachableLabels(['free live readout']);
    const seen = new Set<Label>();
    const sample = fc.sample(sessionShapeArbitrary, { numRuns: 1000, seed: 7 });
    for (const shape of sample) {
      const session = records(shape);
      const events = session.transcript.state === 'read' ? session.transcript.records : [];
      seen.add(appraiseRun(events).label);
    }
    expect([...seen].sort()).toEqual([...declared].sort());
  });
});
