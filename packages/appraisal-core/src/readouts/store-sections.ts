import type { ComparisonRecord, CounterfactualRecord } from '../schemas/comparisons.js';
import type { CorpusAppraisal, PredictionGroup } from '../schemas/corpus-appraisal.js';
import type {
  CurationRecord,
  OwnerOutcomeRecord,
  TextAppraisalRecord,
} from '../schemas/learning.js';
import type { DraftOutcome, OutboxRecord } from '../schemas/outbox.js';
import type { PredictionRecord } from '../schemas/predictions.js';
import type { SourceRead } from '../schemas/source-read.js';

function bump(tally: Record<string, number>, key: string, by = 1): void {
  tally[key] = (tally[key] ?? 0) + by;
}

/**
 * The comparison store counted for one model: the model of the newest comparison a model was
 * run on. Other models are counted beside it, never in it; unposed moments belong to no model;
 * a posed comparison with no model recorded is unknown and never counted.
 */
export function comparisonsSection(
  source: SourceRead<ComparisonRecord>,
): CorpusAppraisal['comparisons'] {
  if (source.state === 'unreadable') return null;
  const posed = source.records.filter((record) => record.verdict !== 'unposed');
  const withModel = posed.filter((record) => record.model !== undefined);
  const newest = [...withModel].sort(
    (a, b) => Date.parse(b.at) - Date.parse(a.at) || a.comparison_id.localeCompare(b.comparison_id),
  )[0];
  const model = newest?.model ?? null;
  const mine = withModel.filter((record) => record.model === model);
  const verdicts = { separated: 0, tied: 0, inconclusive: 0, unreadable_verdict: 0 };
  const byKind: Record<string, number> = {};
  let judgeDecided = 0;
  for (const record of mine) {
    if (record.verdict !== 'unposed') verdicts[record.verdict] += 1;
    bump(byKind, record.moment);
    const decided = record.verdict === 'separated' || record.verdict === 'tied';
    if (decided && record.decided_by === 'judge') judgeDecided += 1;
  }
  const decided = verdicts.separated + verdicts.tied;
  return {
    read: source.state === 'read',
    model,
    records: mine.length,
    ...verdicts,
    judge_decided: judgeDecided,
    by_kind: byKind,
    separated_share: decided === 0 ? null : verdicts.separated / decided,
    other_models: withModel.length - mine.length,
    unposed: source.records.length - posed.length,
    no_model: posed.length - withModel.length,
  };
}

/** Why a prediction is not yet a point. */
export type UnscoredReason =
  | 'draft_not_found'
  | 'draft_pending'
  | 'not_sent'
  | 'sent_edited'
  | 'awaiting_outcome';

/**
 * Scores one prediction against its draft: a point once the draft went out as mecha wrote it
 * and the owner reported how the delivery went; it materialized when that report was not
 * `fine`. An edited send carries the owner's words, so it checks nothing about mecha's.
 */
export function scorePrediction(
  prediction: PredictionRecord,
  firstOutcome: ReadonlyMap<string, DraftOutcome>,
  staged: ReadonlySet<string>,
  reports: ReadonlyMap<string, readonly OwnerOutcomeRecord[]>,
): { readonly scored: true; readonly materialized: boolean } | UnscoredReason {
  const outcome = firstOutcome.get(prediction.draft_id);
  if (outcome === undefined) {
    return staged.has(prediction.draft_id) ? 'draft_pending' : 'draft_not_found';
  }
  if (outcome.outcome === 'rejected' || outcome.outcome === 'cancelled') return 'not_sent';
  if (outcome.outcome === 'sent_edited') return 'sent_edited';
  const linked = reports.get(prediction.draft_id) ?? [];
  if (linked.length === 0) return 'awaiting_outcome';
  return { scored: true, materialized: linked.some((report) => report.kind !== 'fine') };
}

function firstOutcomes(outbox: readonly OutboxRecord[]): Map<string, DraftOutcome> {
  const first = new Map<string, DraftOutcome>();
  for (const record of outbox) {
    if (record.type !== 'outcome') continue;
    const known = first.get(record.draft_id);
    const earlier =
      known === undefined ||
      Date.parse(record.at) < Date.parse(known.at) ||
      (record.at === known.at && `${record.outcome}` < `${known.outcome}`);
    if (earlier) first.set(record.draft_id, record);
  }
  return first;
}

/**
 * Anticipation's predictions scored store-wide, per response and per concern kind. Scoring
 * needs the outbox and the owner outcomes; when either could not be read, the scored counts
 * are `null` rather than short.
 */
export function predictionsSection(
  predictions: SourceRead<PredictionRecord>,
  outbox: SourceRead<OutboxRecord>,
  ownerOutcomes: SourceRead<OwnerOutcomeRecord>,
): CorpusAppraisal['predictions'] {
  if (predictions.state === 'unreadable') return null;
  const canScore = outbox.state !== 'unreadable' && ownerOutcomes.state !== 'unreadable';
  const outboxRecords = outbox.state === 'unreadable' ? [] : outbox.records;
  const first = firstOutcomes(outboxRecords);
  const staged = new Set(
    outboxRecords.filter((record) => record.type === 'staged').map((record) => record.draft_id),
  );
  const reports = new Map<string, OwnerOutcomeRecord[]>();
  for (const report of ownerOutcomes.state === 'unreadable' ? [] : ownerOutcomes.records) {
    reports.set(report.draft_id, [...(reports.get(report.draft_id) ?? []), report]);
  }
  type Working = {
    predictions: number;
    scored: number;
    materialized: number;
    clean: number;
    unscored: Record<string, number>;
  };
  const byResponse = new Map<string, Working>();
  const byConcern = new Map<string, Working>();
  const group = (groups: Map<string, Working>, key: string): Working => {
    let found = groups.get(key);
    if (found === undefined) {
      found = { predictions: 0, scored: 0, materialized: 0, clean: 0, unscored: {} };
      groups.set(key, found);
    }
    return found;
  };
  for (const prediction of predictions.records) {
    const score = scorePrediction(prediction, first, staged, reports);
    for (const working of [
      group(byResponse, prediction.response),
      group(byConcern, prediction.concern),
    ]) {
      working.predictions += 1;
      if (prediction.taint === 'clean') working.clean += 1;
      if (typeof score === 'string') bump(working.unscored, score);
      else {
        working.scored += 1;
        if (score.materialized) working.materialized += 1;
      }
    }
  }
  const finish = (groups: Map<string, Working>): Record<string, PredictionGroup> =>
    Object.fromEntries(
      [...groups].map(([key, working]) => [
        key,
        {
          predictions: working.predictions,
          clean: working.clean,
          scored: canScore ? working.scored : null,
          materialized: canScore ? working.materialized : null,
          unscored: canScore ? working.unscored : null,
          materialized_rate:
            canScore && working.scored > 0 ? working.materialized / working.scored : null,
        },
      ]),
    );
  return {
    total: predictions.records.length,
    unreadable: predictions.state === 'partial' ? predictions.skipped.length : 0,
    outbox_read: outbox.state === 'read' && ownerOutcomes.state === 'read',
    by_response: finish(byResponse),
    by_concern: finish(byConcern),
  };
}

/** Counts from the text-appraisal store and the counterfactual reflections beside it. */
export function textAppraisalsSection(
  appraisals: SourceRead<TextAppraisalRecord>,
  counterfactuals: SourceRead<CounterfactualRecord>,
): CorpusAppraisal['text_appraisals'] {
  if (appraisals.state === 'unreadable') return null;
  const droppedBy: Record<string, number> = {};
  let clean = 0;
  let kept = 0;
  let dropped = 0;
  let withExpectedAct = 0;
  let unresolved = 0;
  for (const record of appraisals.records) {
    if (record.taint === 'clean') clean += 1;
    kept += record.claims_kept;
    for (const [reason, n] of Object.entries(record.claims_dropped)) {
      dropped += n;
      bump(droppedBy, reason, n);
    }
    if (record.expected_act !== undefined) withExpectedAct += 1;
    if (record.goal_unresolved) unresolved += 1;
  }
  const reflections = counterfactuals.state === 'unreadable' ? undefined : counterfactuals.records;
  return {
    read: appraisals.state === 'read' && counterfactuals.state === 'read',
    records: appraisals.records.length,
    sessions: new Set(appraisals.records.map((record) => record.session_id)).size,
    clean,
    not_clean: appraisals.records.length - clean,
    claims_kept: kept,
    claims_dropped: dropped,
    dropped_by: droppedBy,
    with_expected_act: withExpectedAct,
    goals_unresolved: unresolved,
    counterfactuals: reflections?.length ?? null,
    counterfactuals_not_clean:
      reflections?.filter((record) => record.taint !== 'clean').length ?? null,
  };
}

/**
 * The owner's curation verdicts from `since` on, one group per store; a group is `null` when
 * its store could not be read. A verdict that does not belong to its store's group is ignored.
 */
export function curationSection(
  stores: {
    readonly rule: SourceRead<CurationRecord>;
    readonly reflection: SourceRead<CurationRecord>;
    readonly candidate: SourceRead<CurationRecord>;
  },
  since: number,
): CorpusAppraisal['curation'] {
  const tallyOf = <K extends string>(
    source: SourceRead<CurationRecord>,
    target: CurationRecord['target'],
    verdicts: readonly K[],
  ): Record<K, number> | null => {
    if (source.state === 'unreadable') return null;
    const counts = Object.fromEntries(verdicts.map((verdict) => [verdict, 0])) as Record<K, number>;
    for (const record of source.records) {
      if (record.target !== target || Date.parse(record.at) < since) continue;
      const verdict = record.verdict as K;
      if (verdicts.includes(verdict)) counts[verdict] += 1;
    }
    return counts;
  };
  return {
    rules: tallyOf(stores.rule, 'rule', ['retired', 'restored']),
    reflections: tallyOf(stores.reflection, 'reflection', ['dropped', 'edited']),
    candidates: tallyOf(stores.candidate, 'candidate', ['accepted', 'rejected', 'reverted']),
  };
}
