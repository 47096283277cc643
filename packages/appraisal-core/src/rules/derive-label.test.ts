import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goalErrorArbitrary } from '../__fixtures__/evidence-arbitraries.js';
import {
  appraiserVerdict,
  compaction,
  counter,
  end,
  evidence,
  goalError,
  intervention,
  outcome,
  ownerOutcome,
  parked,
  settled,
  staged,
  start,
} from '../__fixtures__/evidence-builders.js';
import type { SessionEvidence } from '../ports/session-evidence.js';
import { formatValence } from '../readouts/format-valence.js';
import type { GoalError, Label } from '../schemas/goal-error.js';
import { contributions } from './contributions.js';
import {
  deriveLabel,
  type LabelFacts,
  labelDerivation,
  labelRules,
  type OwnerOutcomeFact,
} from './derive-label.js';
import { labelFactsFor } from './label-facts-for.js';
import { valence } from './valence.js';

const replies = { kind: 'charter', id: 'replies' } as const;
const facts: LabelFacts = { compacted: false, charterLineIds: new Set(['replies']) };

function withOutcomes(entries: Record<string, OwnerOutcomeFact>): LabelFacts {
  return { ...facts, ownerOutcomes: new Map(Object.entries(entries)) };
}

function labelOf(session: SessionEvidence, charterLines: readonly string[] = ['replies']): Label {
  return deriveLabel(contributions(session).errors, labelFactsFor(session, new Set(charterLines)));
}

describe('deriveLabel: relevance first', () => {
  it('reads a silent run neutral', () => {
    expect(deriveLabel([], facts)).toBe('neutral');
  });

  it('reads only zero-signed entries (a dropped task) neutral', () => {
    expect(deriveLabel([goalError({ sign: 0, channel: 'commitment' })], facts)).toBe('neutral');
  });

  it('reads a compacted run neutral outright, whatever it holds', () => {
    const errors = [goalError({ agency: 'world' }), goalError({ controllable: true })];
    expect(deriveLabel(errors, { ...facts, compacted: true })).toBe('neutral');
  });
});

describe('deriveLabel: negatives, agency before exposure', () => {
  it('labels a negative another party caused anger', () => {
    expect(deriveLabel([goalError({ agency: 'other' })], facts)).toBe('anger');
  });

  it('labels a negative the world caused anger, even when it reached somebody', () => {
    const errors = [
      goalError({ agency: 'world', visible: true, cite: { kind: 'outcome', outcome_id: 'o-1' } }),
    ];
    expect(
      deriveLabel(errors, withOutcomes({ 'o-1': { kind: 'confirmed_error', commitment: false } })),
    ).toBe('anger');
  });

  it('labels a confirmed error in an unchanged message that reached someone embarrassment', () => {
    const session = evidence({
      outbox: [staged('d-1'), outcome('d-1', 'sent_unchanged')],
      ownerOutcomes: [ownerOutcome('o-1', 'd-1', 'confirmed_error')],
    });
    expect(labelOf(session)).toBe('embarrassment');
  });

  it('labels a confirmed error in a message the owner rewrote distress, not embarrassment', () => {
    const session = evidence({
      outbox: [staged('d-1'), outcome('d-1', 'sent_edited')],
      ownerOutcomes: [ownerOutcome('o-1', 'd-1', 'confirmed_error')],
    });
    expect(labelOf(session)).toBe('distress');
  });

  it('labels an adverse impact against a recorded commitment guilt', () => {
    const session = evidence({
      outbox: [staged('d-1'), outcome('d-1', 'sent_unchanged')],
      ownerOutcomes: [ownerOutcome('o-1', 'd-1', 'adverse_impact', { commitment: 'req-4' })],
    });
    expect(labelOf(session)).toBe('guilt');
  });

  it('labels an adverse impact that names no recorded commitment distress', () => {
    const session = evidence({
      outbox: [staged('d-1'), outcome('d-1', 'sent_unchanged')],
      ownerOutcomes: [ownerOutcome('o-1', 'd-1', 'adverse_impact')],
    });
    expect(labelOf(session)).toBe('distress');
  });

  it('does not read an outcome kind it cannot look up (no facts): distress', () => {
    const error = goalError({ visible: true, cite: { kind: 'outcome', outcome_id: 'o-1' } });
    expect(deriveLabel([error], facts)).toBe('distress');
  });

  it('labels a rejected draft distress', () => {
    const session = evidence({ outbox: [staged('d-1'), outcome('d-1', 'rejected')] });
    expect(labelOf(session)).toBe('distress');
  });

  it('labels a ceiling stop distress: the ceiling is the owner’s own limit', () => {
    const session = evidence({ transcript: [start('r-1'), end('r-1', 'turn_ceiling')] });
    expect(labelOf(session)).toBe('distress');
  });

  it('labels twenty-two rejected drafts distress with −22.0 beside it', () => {
    const outbox = Array.from({ length: 22 }, (_, index) => [
      staged(`d-${index}`),
      outcome(`d-${index}`, 'rejected'),
    ]).flat();
    const session = evidence({ outbox });
    const { errors } = contributions(session);
    expect(labelOf(session)).toBe('distress');
    expect(formatValence(valence(errors))).toBe('\u221222.0');
  });

  it('reads one −0.5 as the closure line’s “Distress · −0.5 (0 positive, 1 negative signal)”', () => {
    const session = evidence({ questions: [parked('q-1'), settled('q-1', 'abandoned')] });
    const { errors } = contributions(session);
    const label = labelOf(session);
    const positive = errors.filter((error) => error.sign > 0).length;
    const negative = errors.filter((error) => error.sign < 0).length;
    const word = `${label.charAt(0).toUpperCase()}${label.slice(1)}`;
    expect(
      `${word} · ${formatValence(valence(errors))} (${positive} positive, ${negative} negative signal)`,
    ).toBe('Distress · \u22120.5 (0 positive, 1 negative signal)');
  });

  it('reads an old appraiser verdict of the world’s as anger', () => {
    const session = evidence({ transcript: [start('r-1'), appraiserVerdict('r-1', -1, 'world')] });
    expect(labelOf(session)).toBe('anger');
  });
});

describe('deriveLabel: the probe refines', () => {
  const goal = { kind: 'task', id: 'task-1' } as const;

  it('refines a self-caused negative with an alternative established to regret', () => {
    expect(deriveLabel([goalError({ goal, controllable: true })], facts)).toBe('regret');
  });

  it('refines a negative with no alternative established to disappointment', () => {
    expect(deriveLabel([goalError({ goal, controllable: false })], facts)).toBe('disappointment');
    expect(deriveLabel([goalError({ agency: 'owner', controllable: false })], facts)).toBe(
      'disappointment',
    );
  });

  it('keeps an owner-caused negative with an alternative at distress: regret is self-caused', () => {
    expect(deriveLabel([goalError({ agency: 'owner', controllable: true })], facts)).toBe(
      'distress',
    );
  });

  it('labels repeated probe-resolved self-caused errors of one kind on one goal frustration', () => {
    const errors = [
      goalError({ goal, controllable: true, cite: { kind: 'turn', turn: 2 } }),
      goalError({ goal, controllable: false, cite: { kind: 'turn', turn: 5 } }),
    ];
    expect(deriveLabel(errors, facts)).toBe('frustration');
  });

  it('does not call one error cited twice, errors on two goals, or unresolved ones frustration', () => {
    const same = goalError({ goal, controllable: true });
    expect(deriveLabel([same, { ...same }], facts)).toBe('regret');
    expect(
      deriveLabel(
        [
          goalError({ goal, controllable: true, cite: { kind: 'turn', turn: 2 } }),
          goalError({ goal: replies, controllable: true, cite: { kind: 'turn', turn: 5 } }),
        ],
        facts,
      ),
    ).toBe('regret');
    expect(
      deriveLabel(
        [
          goalError({ goal, cite: { kind: 'turn', turn: 2 } }),
          goalError({ goal, cite: { kind: 'turn', turn: 5 } }),
        ],
        facts,
      ),
    ).toBe('distress');
    expect(
      deriveLabel(
        [
          goalError({ controllable: true, cite: { kind: 'turn', turn: 2 } }),
          goalError({ controllable: true, cite: { kind: 'turn', turn: 5 } }),
        ],
        facts,
      ),
    ).toBe('regret');
  });

  it('tells counter kinds apart when looking for repetition', () => {
    const errors = [
      goalError({
        goal,
        channel: 'counter',
        controllable: true,
        cite: { kind: 'counter', name: 'loop_stop' },
      }),
      goalError({
        goal,
        channel: 'counter',
        controllable: true,
        cite: { kind: 'counter', name: 'empty_output' },
      }),
    ];
    expect(deriveLabel(errors, facts)).toBe('regret');
  });
});

describe('deriveLabel: magnitude first', () => {
  it('reads only the largest negatives: a steer masks a smaller error of the world’s', () => {
    const steer = goalError({ sign: -1, agency: 'self' });
    const outage = goalError({ sign: -0.5, agency: 'world', channel: 'counter' });
    expect(deriveLabel([steer, outage], facts)).toBe('distress');
    // Dropping the steer un-masks the smaller error and reads louder: why compaction reads neutral.
    expect(deriveLabel([outage], facts)).toBe('anger');
  });

  it('lets the mixed evidence keep both sums while the label follows the negative', () => {
    const session = evidence({
      transcript: [start('r-1', 0, { goal: replies }), counter('r-1', 'boredom_notice')],
      outbox: [staged('d-1', { goal: replies }), outcome('d-1', 'sent_unchanged')],
    });
    const { errors } = contributions(session);
    expect(labelOf(session)).toBe('distress');
    expect(formatValence(valence(errors))).toBe('+1.0 \u22120.5');
  });
});

describe('deriveLabel: positives', () => {
  it('labels a draft the owner sent unchanged against an existing charter line pride', () => {
    const session = evidence({
      outbox: [staged('d-1', { goal: replies }), outcome('d-1', 'sent_unchanged')],
    });
    expect(labelOf(session)).toBe('pride');
  });

  it('labels an answered question followed by completion, on a charter line, pride', () => {
    const session = evidence({
      transcript: [
        start('r-1', 0),
        end('r-1', 'parked', 1),
        start('r-2', 3),
        end('r-2', 'completed', 4),
      ],
      questions: [parked('q-1', 0.4, replies), settled('q-1', 'answered', 2)],
    });
    expect(labelOf(session)).toBe('pride');
  });

  it('reads a delivery against a charter line that does not exist neutral', () => {
    const session = evidence({
      outbox: [staged('d-1', { goal: replies }), outcome('d-1', 'sent_unchanged')],
    });
    expect(labelOf(session, [])).toBe('neutral');
  });

  it('reads a delivery to a task, and a positive that is no delivery, neutral', () => {
    const toTask = evidence({
      outbox: [
        staged('d-1', { goal: { kind: 'task', id: 'task-1' } }),
        outcome('d-1', 'sent_unchanged'),
      ],
    });
    expect(labelOf(toTask)).toBe('neutral');
    const closureCredit = goalError({
      sign: 0.5,
      channel: 'commitment',
      agency: 'owner',
      goal: replies,
      cite: { kind: 'closure', closure_id: 'c-1' },
    });
    expect(deriveLabel([closureCredit], facts)).toBe('neutral');
    const appraiserPraise = goalError({
      sign: 1,
      channel: 'appraisal',
      goal: replies,
      cite: { kind: 'appraiser' },
    });
    expect(deriveLabel([appraiserPraise], facts)).toBe('neutral');
  });
});

describe('labelFactsFor', () => {
  it('collects compaction, the charter lines and the owner outcomes by id', () => {
    const session = evidence({
      transcript: [start('r-1'), compaction('r-1')],
      ownerOutcomes: [ownerOutcome('o-1', 'd-1', 'adverse_impact', { commitment: 'q-1' })],
    });
    const result = labelFactsFor(session, new Set(['replies']));
    expect(result.compacted).toBe(true);
    expect([...result.charterLineIds]).toEqual(['replies']);
    expect(result.ownerOutcomes?.get('o-1')).toEqual({ kind: 'adverse_impact', commitment: true });
  });

  it('reads unreadable sources as no facts rather than failing', () => {
    const session = evidence({
      transcript: { state: 'unreadable', reason: 'gone' },
      ownerOutcomes: { state: 'unreadable', reason: 'gone' },
    });
    const result = labelFactsFor(session, new Set());
    expect(result.compacted).toBe(false);
    expect(result.ownerOutcomes?.size).toBe(0);
  });

  it('reads a compacted session neutral however it went', () => {
    const session = evidence({
      transcript: [start('r-1'), intervention('r-1', 'steer', 2), compaction('r-1')],
      outbox: [staged('d-1'), outcome('d-1', 'rejected')],
    });
    expect(labelOf(session)).toBe('neutral');
    expect(contributions(session).partial).toBe(true);
  });
});

describe('labelRules', () => {
  it('names every label the derivation can return, in one order, each rule once', () => {
    const ids = labelRules.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(labelRules[0]?.id).toBe('compacted');
    expect(labelRules.at(-1)?.label).toBe('neutral');
    expect(labelRules.some((rule) => rule.label === 'shame' || rule.label === 'excitement')).toBe(
      false,
    );
  });
});

describe('deriveLabel: frustration is repetition of one kind, by self, on one goal', () => {
  const goal = { kind: 'task', id: 'task-1' } as const;

  it('reads one cite written with its keys in another order as one error: regret, not frustration', () => {
    const first = goalError({ goal, controllable: true, cite: { kind: 'turn', turn: 2 } });
    // The same pointer as a record read back from another store may spell it: keys reordered.
    const reordered = goalError({ goal, controllable: true, cite: { turn: 2, kind: 'turn' } });
    expect(deriveLabel([first, reordered], facts)).toBe('regret');
  });

  it('tells setpoints apart by name: two different setpoints are two kinds, not a repetition', () => {
    const errors = [
      goalError({
        goal,
        channel: 'setpoint',
        controllable: true,
        cite: { kind: 'setpoint', name: 'outbox_age' },
      }),
      goalError({
        goal,
        channel: 'setpoint',
        controllable: true,
        cite: { kind: 'setpoint', name: 'question_latency' },
      }),
    ];
    expect(deriveLabel(errors, facts)).toBe('regret');
  });

  it('does not call repeated owner-caused errors frustration: with no alternative they disappoint', () => {
    const errors = [
      goalError({ goal, agency: 'owner', controllable: false, cite: { kind: 'turn', turn: 2 } }),
      goalError({ goal, agency: 'owner', controllable: false, cite: { kind: 'turn', turn: 5 } }),
    ];
    expect(deriveLabel(errors, facts)).toBe('disappointment');
  });
});

describe('deriveLabel: pride needs a delivery', () => {
  // A delivery is a draft on the edit channel or a question on the commitment channel; the same
  // cite on another channel, or another cite on the same channel, delivered nothing.
  const notDeliveries: readonly [string, GoalError][] = [
    [
      'an edit-channel credit citing a turn',
      goalError({ sign: 1, channel: 'edit', goal: replies, cite: { kind: 'turn', turn: 3 } }),
    ],
    [
      'a draft cited on the appraisal channel',
      goalError({
        sign: 1,
        channel: 'appraisal',
        goal: replies,
        cite: { kind: 'draft', draft_id: 'd-1' },
      }),
    ],
    [
      'a question cited on the counter channel',
      goalError({
        sign: 0.5,
        channel: 'counter',
        goal: replies,
        cite: { kind: 'question', question_id: 'q-1' },
      }),
    ],
    [
      'a commitment-channel credit citing a workflow',
      goalError({
        sign: 0.5,
        channel: 'commitment',
        goal: replies,
        cite: { kind: 'workflow', workflow_id: 'w-1' },
      }),
    ],
  ];

  it.each(notDeliveries)('reads %s against an existing charter line neutral', (_, error) => {
    expect(deriveLabel([error], facts)).toBe('neutral');
  });

  it('reads a question delivered on the commitment channel against a charter line pride', () => {
    const answered = goalError({
      sign: 0.5,
      channel: 'commitment',
      agency: 'owner',
      goal: replies,
      cite: { kind: 'question', question_id: 'q-1' },
    });
    expect(deriveLabel([answered], facts)).toBe('pride');
  });

  it('does not let a zero-signed delivery lend pride to another positive', () => {
    const zeroDelivery = goalError({
      sign: 0,
      channel: 'edit',
      goal: replies,
      cite: { kind: 'draft', draft_id: 'd-1' },
    });
    const closureCredit = goalError({
      sign: 0.5,
      channel: 'commitment',
      agency: 'owner',
      goal: replies,
      cite: { kind: 'closure', closure_id: 'c-1' },
    });
    expect(deriveLabel([zeroDelivery, closureCredit], facts)).toBe('neutral');
    expect(deriveLabel([closureCredit, zeroDelivery], facts)).toBe('neutral');
  });
});

describe('labelDerivation: the rule that fired and what it read', () => {
  const ruleOf = (errors: readonly GoalError[], labelFacts: LabelFacts = facts) =>
    labelDerivation(errors, labelFacts).rule.id;

  it('names relevance, not a positive reading, for a silent run or zero-signed entries alone', () => {
    expect(ruleOf([])).toBe('irrelevant');
    const dropped = goalError({ sign: 0, channel: 'commitment' });
    expect(ruleOf([dropped])).toBe('irrelevant');
    expect(ruleOf([dropped, { ...dropped, cite: { kind: 'turn', turn: 4 } }])).toBe('irrelevant');
  });

  it('reads no error for a compacted or an irrelevant run', () => {
    const negative = goalError({ agency: 'world' });
    expect(labelDerivation([negative], { ...facts, compacted: true })).toEqual({
      rule: labelRules.find((rule) => rule.id === 'compacted'),
      witnesses: [],
    });
    expect(labelDerivation([goalError({ sign: 0 })], facts)).toEqual({
      rule: labelRules.find((rule) => rule.id === 'irrelevant'),
      witnesses: [],
    });
  });

  it('reads the positives alone when nothing is negative, never a zero-signed entry', () => {
    const credit = goalError({
      sign: 0.5,
      channel: 'commitment',
      agency: 'owner',
      cite: { kind: 'closure', closure_id: 'c-1' },
    });
    const dropped = goalError({ sign: 0, channel: 'commitment' });
    const derivation = labelDerivation([dropped, credit], facts);
    expect(derivation.rule.id).toBe('positive');
    expect(derivation.witnesses).toEqual([credit]);
    expect(derivation.witnesses[0]).toBe(credit);
  });

  it('reads a repeated cite once, as the first error that named it', () => {
    const goal = { kind: 'task', id: 'task-1' } as const;
    const first = goalError({ goal, controllable: true, cite: { kind: 'turn', turn: 2 } });
    const again = goalError({ goal, controllable: false, cite: { kind: 'turn', turn: 2 } });
    const other = goalError({ goal, controllable: true, cite: { kind: 'turn', turn: 5 } });
    const derivation = labelDerivation([first, again, other], facts);
    expect(derivation.rule.id).toBe('frustration');
    expect(derivation.witnesses).toHaveLength(2);
    expect(derivation.witnesses[0]).toBe(first);
    expect(derivation.witnesses[1]).toBe(other);
  });
});

// ---- properties ------------------------------------------------------------------------

const factsArbitrary: fc.Arbitrary<LabelFacts> = fc.record({
  compacted: fc.oneof(
    { weight: 9, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
  charterLineIds: fc.subarray(['replies', 'invoices']).map((ids) => new Set(ids)),
  ownerOutcomes: fc
    .array(
      fc.tuple(
        fc.constantFrom('o-1', 'o-2'),
        fc.record({
          kind: fc.constantFrom('fine', 'confirmed_error', 'adverse_impact'),
          commitment: fc.boolean(),
        }),
      ),
    )
    .map((entries) => new Map(entries)),
});

const errorsArbitrary = fc.array(goalErrorArbitrary, { maxLength: 12 });
const negativeLabels = new Set<Label>([
  'anger',
  'embarrassment',
  'guilt',
  'frustration',
  'regret',
  'disappointment',
  'distress',
]);

describe('deriveLabel: properties', () => {
  it('is deterministic and does not depend on the order of the errors', () => {
    const permuted = errorsArbitrary.chain((errors) =>
      fc.tuple(
        fc.constant(errors),
        fc.shuffledSubarray(errors, { minLength: errors.length, maxLength: errors.length }),
      ),
    );
    fc.assert(
      fc.property(permuted, factsArbitrary, ([errors, shuffled], labelFacts) => {
        expect(deriveLabel(errors, labelFacts)).toBe(deriveLabel(errors, labelFacts));
        expect(deriveLabel(shuffled, labelFacts)).toBe(deriveLabel(errors, labelFacts));
      }),
    );
  });

  it('follows the negative evidence when the evidence is mixed', () => {
    fc.assert(
      fc.property(errorsArbitrary, factsArbitrary, (errors, labelFacts) => {
        fc.pre(errors.some((error) => error.sign < 0));
        const negativesOnly = errors.filter((error) => error.sign <= 0);
        expect(deriveLabel(errors, labelFacts)).toBe(deriveLabel(negativesOnly, labelFacts));
      }),
    );
  });

  it('never changes a negative label when a positive is added', () => {
    const positive = goalErrorArbitrary.filter((error) => error.sign > 0);
    fc.assert(
      fc.property(errorsArbitrary, positive, factsArbitrary, (errors, added, labelFacts) => {
        const label = deriveLabel(errors, labelFacts);
        fc.pre(negativeLabels.has(label));
        expect(deriveLabel([...errors, added], labelFacts)).toBe(label);
        expect(deriveLabel([added, ...errors], labelFacts)).toBe(label);
      }),
    );
  });

  it('never reads pride without a charter line that exists', () => {
    fc.assert(
      fc.property(errorsArbitrary, factsArbitrary, (errors, labelFacts) => {
        expect(deriveLabel(errors, { ...labelFacts, charterLineIds: new Set() })).not.toBe('pride');
        if (deriveLabel(errors, labelFacts) === 'pride') {
          const lines = errors.flatMap((error) =>
            error.sign > 0 && error.goal?.kind === 'charter' && error.goal.id !== undefined
              ? [error.goal.id]
              : [],
          );
          expect(lines.some((line) => labelFacts.charterLineIds.has(line))).toBe(true);
        }
      }),
    );
  });

  it('never reads a negative label without a negative, nor pride with one', () => {
    fc.assert(
      fc.property(errorsArbitrary, factsArbitrary, (errors, labelFacts) => {
        const label = deriveLabel(errors, labelFacts);
        const negative = errors.some((error) => error.sign < 0);
        if (negativeLabels.has(label)) expect(negative).toBe(true);
        if (label === 'pride') expect(negative).toBe(false);
      }),
    );
  });

  it('reads every compacted run neutral, and never reads shame or excitement', () => {
    fc.assert(
      fc.property(errorsArbitrary, factsArbitrary, (errors, labelFacts) => {
        expect(deriveLabel(errors, { ...labelFacts, compacted: true })).toBe('neutral');
        expect(['shame', 'excitement']).not.toContain(deriveLabel(errors, labelFacts));
      }),
    );
  });

  it('ignores every error smaller than the largest negative (magnitude first)', () => {
    fc.assert(
      fc.property(errorsArbitrary, factsArbitrary, (errors, labelFacts) => {
        const largest = Math.max(0, ...errors.map((error) => -error.sign));
        fc.pre(largest > 0);
        const dominant = errors.filter((error: GoalError) => -error.sign === largest);
        expect(deriveLabel(errors, labelFacts)).toBe(deriveLabel(dominant, labelFacts));
      }),
    );
  });
});
