import { describe, expect, it } from 'vitest';
import { at, textAppraisal } from '../__fixtures__/records.js';
import type { ComparisonRecord } from '../schemas/comparisons.js';
import {
  dereference,
  pendingReflections,
  quoteOf,
  reflectionText,
} from './counterfactual-reflection.js';

const decided = (id: string, sessionId = 's-1'): ComparisonRecord => ({
  v: 1,
  comparison_id: id,
  at: at(1),
  session_id: sessionId,
  moment: 'draft_rejected',
  model: 'sha256:abc',
  verdict: 'separated',
  decided_by: 'validator',
  point: { turn: 6, call: 2, draft_id: 'd-1' },
  validator: 'rejected_draft',
  arms: [
    {
      policy: 'covering',
      prompt: 'covering',
      prompt_digest: '9f8e7d6c5b4a',
      result: 'did_refused',
    },
    { policy: 'none', prompt: 'none', result: 'did_not' },
  ],
});

let counter = 0;
const newId = () => `cfr-${++counter}`;

/** The reflections a pass adds for these comparisons, session s-1 having one appraisal. */
const reflect = (comparisons: readonly ComparisonRecord[]) =>
  pendingReflections({
    comparisons,
    reflections: [],
    appraisals: [textAppraisal('ta-1', 's-1')],
    now: new Date(at(3)),
    newId,
  }).add;

describe('counterfactual reflections', () => {
  it('words a reflection from the comparison alone', () => {
    const quote = quoteOf(decided('cmp-1'));
    expect(quote).toBeDefined();
    expect(reflectionText(quote as NonNullable<typeof quote>, 'cmp-1')).toBe(
      'Counterfactual at a draft the owner rejected (message 6, call 2, draft d-1). ' +
        'Lost: under the system prompt that covered the moment (prompt 9f8e7d6c5b4a), the arm drafted the text the owner rejected. ' +
        'Won: under no system prompt, the arm did not draft it. ' +
        'Decided by the rejected-draft validator against the owner’s recorded act; comparison cmp-1.',
    );
  });

  it('writes one per separated comparison, carrying the appraisal’s taint, each once; a session without an appraisal waits', () => {
    const comparisons = [
      decided('cmp-1'),
      { ...decided('cmp-tied'), verdict: 'tied' as const },
      { ...decided('cmp-open'), verdict: 'inconclusive' as const, decided_by: undefined },
      decided('cmp-2', 's-2'),
      { ...decided('cmp-old'), arms: undefined },
    ];
    const appraisals = [
      textAppraisal('ta-1', 's-1', { taint: 'clean', at: 1 }),
      textAppraisal('ta-2', 's-1', { taint: 'third_party', at: 2 }),
    ];
    const first = pendingReflections({
      comparisons,
      reflections: [],
      appraisals,
      now: new Date(at(3)),
      newId,
    });
    expect(first.waiting).toBe(1);
    expect(first.add.map((record) => [record.comparison_id, record.taint])).toEqual([
      ['cmp-1', 'third_party'],
    ]);
    const second = pendingReflections({
      comparisons,
      reflections: first.add,
      appraisals: [...appraisals, textAppraisal('ta-3', 's-2', { taint: 'clean' })],
      now: new Date(at(4)),
      newId,
    });
    expect(second.add.map((record) => record.comparison_id)).toEqual(['cmp-2']);
    expect(second.waiting).toBe(0);
  });

  it('dereferences while its comparison is on record unchanged, and not once edited or removed', () => {
    const comparison = decided('cmp-1');
    const [reflection] = reflect([comparison]);
    if (reflection === undefined) throw new Error('expected a reflection');
    expect(dereference(reflection, [comparison])).toEqual({ state: 'dereferences' });
    expect(dereference(reflection, [])).toEqual({ state: 'missing' });
    const edited = {
      ...comparison,
      arms: comparison.arms?.map((arm) => ({
        ...arm,
        result: arm.result === 'did_not' ? ('did_refused' as const) : ('did_not' as const),
      })),
    };
    expect(dereference(reflection, [edited])).toEqual({ state: 'changed' });
    expect(dereference(reflection, [{ ...comparison, verdict: 'tied' }])).toEqual({
      state: 'changed',
    });
    expect(dereference({ ...reflection, quoted: undefined }, [comparison])).toEqual({
      state: 'dereferences',
    });
  });
});

describe('quoteOf', () => {
  it('quotes the model the arms ran on, and names none when the comparison recorded none', () => {
    expect(quoteOf(decided('cmp-1'))?.model).toBe('sha256:abc');
    const { model: _, ...unrecorded } = decided('cmp-2');
    const quote = quoteOf(unrecorded);
    expect(quote).toBeDefined();
    expect(quote).not.toHaveProperty('model');
  });

  it('quotes nothing unless some arm lost and some arm won', () => {
    const withResults = (...results: ('did_refused' | 'did_not' | 'ungraded')[]) =>
      quoteOf({
        ...decided('cmp-3'),
        arms: results.map((result, index) => ({
          policy: `p-${index}`,
          prompt: 'none' as const,
          result,
        })),
      });
    expect(withResults('did_refused', 'did_refused')).toBeUndefined();
    expect(withResults('did_not', 'ungraded')).toBeUndefined();
    expect(withResults('ungraded', 'ungraded')).toBeUndefined();
    expect(withResults()).toBeUndefined();
    expect(withResults('did_refused', 'did_not')).toBeDefined();
  });

  it('quotes nothing without the validator or the point it would name', () => {
    const { validator: _v, ...noValidator } = decided('cmp-4');
    const { point: _p, ...noPoint } = decided('cmp-5');
    expect(quoteOf(noValidator)).toBeUndefined();
    expect(quoteOf(noPoint)).toBeUndefined();
    expect(quoteOf({ ...decided('cmp-6'), decided_by: 'judge' })).toBeUndefined();
  });
});

describe('pendingReflections: the newest appraisal', () => {
  it('of two appraisals at the same time, carries the taint of the one recorded later', () => {
    const pending = (appraisals: ReturnType<typeof textAppraisal>[]) =>
      pendingReflections({
        comparisons: [decided('cmp-1')],
        reflections: [],
        appraisals,
        now: new Date(at(9)),
        newId,
      }).add.map((record) => record.taint);
    const clean = textAppraisal('ta-1', 's-1', { taint: 'clean', at: 2 });
    const tainted = textAppraisal('ta-2', 's-1', { taint: 'third_party', at: 2 });
    expect(pending([clean, tainted])).toEqual(['third_party']);
    expect(pending([tainted, clean])).toEqual(['clean']);
    // A later time wins over store order.
    const older = textAppraisal('ta-3', 's-1', { taint: 'third_party', at: 1 });
    expect(pending([clean, older])).toEqual(['clean']);
    // Another session's appraisal is not this one's.
    expect(pending([textAppraisal('ta-4', 's-2', { taint: 'third_party', at: 3 }), clean])).toEqual(
      ['clean'],
    );
  });
});

describe('dereference: the quote as read back', () => {
  it('still dereferences when the stored quote spells its keys in another order', () => {
    const comparison = decided('cmp-1');
    const [reflection] = reflect([comparison]);
    if (reflection?.quoted === undefined) throw new Error('expected a quoted reflection');
    // The same quote, every object's keys reversed, as another writer may have stored it.
    const reversed = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reversed)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([key, inner]) => [key, reversed(inner)]),
            )
          : value;
    const quoted = reversed(reflection.quoted) as typeof reflection.quoted;
    expect(JSON.stringify(quoted)).not.toBe(JSON.stringify(reflection.quoted));
    expect(dereference({ ...reflection, quoted }, [comparison])).toEqual({
      state: 'dereferences',
    });
  });
});

describe('counterfactual reflection words', () => {
  const cases = [
    [
      'steer',
      'steered_call',
      'a steer',
      'the arm made the call the owner steered away from',
      'the arm did not make it',
      'the steered-call validator',
    ],
    [
      'refusal',
      'denied_call',
      'a call the owner denied',
      'the arm made the call the owner denied',
      'the arm did not make it',
      'the denied-call validator',
    ],
    [
      'draft_rewritten',
      'rewritten_draft',
      'a draft the owner rewrote',
      'the arm drafted the text the owner rewrote',
      'the arm did not draft it',
      'the rewritten-draft validator',
    ],
    [
      'draft_rejected',
      'rejected_draft',
      'a draft the owner rejected',
      'the arm drafted the text the owner rejected',
      'the arm did not draft it',
      'the rejected-draft validator',
    ],
  ] as const;

  it.each(cases)('words %s decided by %s', (moment, validator, at, did, didNot, by) => {
    const quote = quoteOf({
      ...decided('cmp-9'),
      moment,
      validator,
      point: {},
      arms: [
        { policy: 'first', prompt: 'first', prompt_digest: 'abc', result: 'did_refused' },
        { policy: 'first-bare', prompt: 'first', result: 'did_refused' },
        { policy: 'covering', prompt: 'covering', result: 'did_not' },
        { policy: 'other', prompt: 'none', result: 'ungraded' },
      ],
    });
    expect(quote?.lost).toHaveLength(2);
    expect(quote?.won).toHaveLength(1);
    expect(reflectionText(quote as NonNullable<typeof quote>, 'cmp-9')).toBe(
      `Counterfactual at ${at}. ` +
        `Lost: under the session’s first system prompt (prompt abc), ${did}; under the session’s first system prompt, ${did}. ` +
        `Won: under the system prompt that covered the moment, ${didNot}. ` +
        `Decided by ${by} against the owner’s recorded act; comparison cmp-9.`,
    );
  });

  it('names a point by the parts it has', () => {
    const quote = quoteOf({ ...decided('cmp-8'), point: { call: 3 } });
    expect(reflectionText(quote as NonNullable<typeof quote>, 'cmp-8')).toContain(
      'Counterfactual at a draft the owner rejected (call 3). ',
    );
  });
});

describe('dereference and pendingReflections: a comparison id on record more than once, or not at all', () => {
  it('is missing when its own comparison is gone, whatever other comparisons are on record', () => {
    const [reflection] = reflect([decided('cmp-1')]);
    if (reflection === undefined) throw new Error('expected a reflection');
    expect(dereference(reflection, [decided('cmp-2'), decided('cmp-3')])).toEqual({
      state: 'missing',
    });
  });

  it('dereferences when one record of its comparison still says what it quotes', () => {
    const [reflection] = reflect([decided('cmp-1')]);
    if (reflection === undefined) throw new Error('expected a reflection');
    const rewritten: ComparisonRecord = { ...decided('cmp-1'), validator: 'rewritten_draft' };
    expect(dereference(reflection, [rewritten, decided('cmp-1')])).toEqual({
      state: 'dereferences',
    });
    expect(dereference(reflection, [rewritten])).toEqual({ state: 'changed' });
  });

  it('writes one reflection for a comparison recorded twice', () => {
    const added = reflect([decided('cmp-1'), decided('cmp-1')]);
    expect(added.map((reflection) => reflection.comparison_id)).toEqual(['cmp-1']);
  });
});
