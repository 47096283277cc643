import { describe, expect, it } from 'vitest';
import { partial, unreadable } from '../__fixtures__/memory-ports.js';
import { at, comparison, outcome, staged, textAppraisal } from '../__fixtures__/records.js';
import type { ComparisonRecord, CounterfactualRecord } from '../schemas/comparisons.js';
import type { CurationRecord, OwnerOutcomeRecord } from '../schemas/learning.js';
import type { OutboxRecord } from '../schemas/outbox.js';
import type { PredictionRecord } from '../schemas/predictions.js';
import type { SourceRead } from '../schemas/source-read.js';
import {
  comparisonsSection,
  curationSection,
  predictionsSection,
  textAppraisalsSection,
} from './store-sections.js';

const read = <T>(records: readonly T[]): SourceRead<T> => ({ state: 'read', records });

describe('comparisonsSection', () => {
  it('counts only the model of the newest comparison a model was run on', () => {
    const section = comparisonsSection(
      read<ComparisonRecord>([
        comparison('c-1', { at: 1, model: 'llama', verdict: 'separated', moment: 'steer' }),
        comparison('c-2', {
          at: 2,
          model: 'qwen',
          verdict: 'separated',
          moment: 'steer',
          decidedBy: 'judge',
        }),
        comparison('c-3', {
          at: 3,
          model: 'qwen',
          verdict: 'tied',
          moment: 'draft_rejected',
          decidedBy: 'validator',
        }),
        comparison('c-4', {
          at: 4,
          model: 'qwen',
          verdict: 'inconclusive',
          moment: 'steer',
          decidedBy: 'judge',
        }),
        comparison('c-5', {
          at: 5,
          model: 'qwen',
          verdict: 'unreadable_verdict',
          moment: 'refusal',
        }),
        comparison('c-6', { at: 9, verdict: 'unposed', moment: 'steer' }),
        comparison('c-7', { at: 8, verdict: 'separated', moment: 'steer' }),
      ]),
    );
    expect(section).toEqual({
      read: true,
      model: 'qwen',
      records: 4,
      separated: 1,
      tied: 1,
      inconclusive: 1,
      unreadable_verdict: 1,
      judge_decided: 1,
      by_kind: { steer: 2, draft_rejected: 1, refusal: 1 },
      separated_share: 0.5,
      other_models: 1,
      unposed: 1,
      no_model: 1,
    });
  });

  it('has no share when nothing was decided and no model when none was run', () => {
    expect(comparisonsSection(read([comparison('c-1', { verdict: 'unposed' })]))).toMatchObject({
      model: null,
      records: 0,
      separated_share: null,
      unposed: 1,
    });
    expect(
      comparisonsSection(read([comparison('c-1', { model: 'qwen', verdict: 'inconclusive' })])),
    ).toMatchObject({ records: 1, separated_share: null });
  });

  it('is null when the store cannot be read and not read whole when a line was skipped', () => {
    expect(comparisonsSection(unreadable())).toBeNull();
    expect(comparisonsSection(partial([]))).toMatchObject({ read: false, records: 0 });
  });
});

describe('predictionsSection', () => {
  const prediction = (
    id: string,
    draftId: string,
    concern = 'tone',
    response = 'release',
  ): PredictionRecord => ({
    v: 1,
    prediction_id: id,
    at: at(1),
    draft_id: draftId,
    session_id: 's-1',
    response,
    concern,
    taint: 'clean',
  });
  const report = (draftId: string, kind: OwnerOutcomeRecord['kind']): OwnerOutcomeRecord => ({
    v: 1,
    outcome_id: `o-${draftId}`,
    at: at(5),
    draft_id: draftId,
    session_id: 's-1',
    kind,
  });
  const outbox = read<OutboxRecord>([
    staged('d-1', 's-1'),
    outcome('d-1', 'sent_unchanged'),
    staged('d-2', 's-1'),
    outcome('d-2', 'sent_unchanged'),
    staged('d-3', 's-1'),
    outcome('d-3', 'rejected'),
    staged('d-4', 's-1'),
    staged('d-5', 's-1'),
    outcome('d-5', 'sent_edited'),
    staged('d-6', 's-1'),
    outcome('d-6', 'sent_unchanged'),
  ]);
  const predictions = read([
    prediction('p-1', 'd-1'),
    prediction('p-2', 'd-2', 'wrong_recipient'),
    prediction('p-3', 'd-3'),
    prediction('p-4', 'd-4'),
    prediction('p-5', 'd-5'),
    prediction('p-6', 'd-6'),
    prediction('p-7', 'd-missing', 'tone', 'hold'),
  ]);
  const reports = read([report('d-1', 'confirmed_error'), report('d-2', 'fine')]);

  it('scores a prediction once its unchanged send has an owner outcome, and says why the rest are not', () => {
    const section = predictionsSection(predictions, outbox, reports);
    expect(section?.by_concern.tone).toEqual({
      predictions: 6,
      scored: 1,
      materialized: 1,
      clean: 6,
      unscored: {
        not_sent: 1,
        draft_pending: 1,
        sent_edited: 1,
        awaiting_outcome: 1,
        draft_not_found: 1,
      },
      materialized_rate: 1,
    });
    expect(section?.by_concern.wrong_recipient).toMatchObject({
      scored: 1,
      materialized: 0,
      materialized_rate: 0,
    });
    expect(section?.by_response.hold).toMatchObject({
      predictions: 1,
      scored: 0,
      materialized_rate: null,
    });
    expect(section).toMatchObject({ total: 7, unreadable: 0, outbox_read: true });
  });

  it('gives null scored counts when the outbox or the owner outcomes cannot be read', () => {
    for (const [box, outcomes] of [
      [unreadable<OutboxRecord>(), reports],
      [outbox, unreadable<OwnerOutcomeRecord>()],
    ] as const) {
      const section = predictionsSection(predictions, box, outcomes);
      expect(section?.outbox_read).toBe(false);
      expect(section?.by_concern.tone).toMatchObject({
        predictions: 6,
        scored: null,
        materialized: null,
        unscored: null,
        materialized_rate: null,
      });
    }
  });

  it('counts skipped prediction lines as unreadable and is null when the store cannot be read', () => {
    expect(predictionsSection(partial([prediction('p-1', 'd-1')]), outbox, reports)).toMatchObject({
      total: 1,
      unreadable: 1,
    });
    expect(predictionsSection(unreadable(), outbox, reports)).toBeNull();
  });
});

describe('textAppraisalsSection', () => {
  it('counts records, sessions, taint, grounding and expected acts', () => {
    const section = textAppraisalsSection(
      read([
        textAppraisal('a-1', 's-1', {
          taint: 'clean',
          kept: 2,
          dropped: { no_such_referent: 2 },
          expected: 'closed',
        }),
        textAppraisal('a-2', 's-2', {
          taint: 'third_party',
          kept: 0,
          dropped: { quote_not_found: 1 },
          goalUnresolved: true,
        }),
        textAppraisal('a-3', 's-2', { taint: 'unknown', kept: 1 }),
      ]),
      read<CounterfactualRecord>([
        {
          v: 1,
          reflection_id: 'cfr-1',
          at: at(1),
          session_id: 's-1',
          comparison_id: 'cmp-1',
          taint: 'clean',
        },
        {
          v: 1,
          reflection_id: 'cfr-2',
          at: at(1),
          session_id: 's-2',
          comparison_id: 'cmp-2',
          taint: 'third_party',
        },
      ]),
    );
    expect(section).toEqual({
      read: true,
      records: 3,
      sessions: 2,
      clean: 1,
      not_clean: 2,
      claims_kept: 3,
      claims_dropped: 3,
      dropped_by: { no_such_referent: 2, quote_not_found: 1 },
      with_expected_act: 1,
      goals_unresolved: 1,
      counterfactuals: 2,
      counterfactuals_not_clean: 1,
    });
  });

  it('is null without the store and has null counterfactuals without theirs', () => {
    expect(textAppraisalsSection(unreadable(), read([]))).toBeNull();
    expect(textAppraisalsSection(read([]), unreadable())).toMatchObject({
      read: false,
      counterfactuals: null,
      counterfactuals_not_clean: null,
    });
  });
});

describe('curationSection', () => {
  const verdict = (
    target: CurationRecord['target'],
    v: CurationRecord['verdict'],
    hours = 1,
  ): CurationRecord => ({
    v: 1,
    at: at(hours),
    target,
    target_id: `${target}-1`,
    verdict: v,
  });

  it('counts each store’s verdicts from the window on and ignores a verdict foreign to its store', () => {
    const section = curationSection(
      {
        rule: read([
          verdict('rule', 'retired'),
          verdict('rule', 'restored'),
          verdict('rule', 'retired', -100),
          verdict('rule', 'accepted'),
        ]),
        reflection: read([
          verdict('reflection', 'dropped'),
          verdict('reflection', 'edited'),
          verdict('reflection', 'edited'),
        ]),
        candidate: read([
          verdict('candidate', 'accepted'),
          verdict('candidate', 'reverted'),
          verdict('rule', 'retired'),
        ]),
      },
      Date.parse(at(0)),
    );
    expect(section).toEqual({
      rules: { retired: 1, restored: 1 },
      reflections: { dropped: 1, edited: 2 },
      candidates: { accepted: 1, rejected: 0, reverted: 1 },
    });
  });

  it('gives a null group for a store that cannot be read', () => {
    expect(
      curationSection({ rule: unreadable(), reflection: read([]), candidate: unreadable() }, 0),
    ).toEqual({ rules: null, reflections: { dropped: 0, edited: 0 }, candidates: null });
  });
});
