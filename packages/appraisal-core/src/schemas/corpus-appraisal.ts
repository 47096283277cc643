import { z } from 'zod';
import { labelSchema } from './goal-error.js';
import { taintSchema } from './primitives.js';

const count = z.int().nonnegative();
/** A count whose source could not be read is `null`, never 0. */
const countOrNull = count.nullable();
const tally = z.record(z.string(), count);

/** Counts of one group of predictions (by response, or by concern kind). */
export const predictionGroupSchema = z.strictObject({
  predictions: count,
  /** The rest below are `null` when the outbox or the owner outcomes could not be read. */
  scored: countOrNull,
  materialized: countOrNull,
  /** Predictions made with no third-party content in the conversation. */
  clean: count,
  /** Why the rest are not yet a point, by reason. */
  unscored: tally.nullable(),
  /** materialized / scored; `null` when nothing was scored. */
  materialized_rate: z.number().min(0).max(1).nullable(),
});
/** Counts of one group of predictions (by response, or by concern kind). */
export type PredictionGroup = z.infer<typeof predictionGroupSchema>;

/** The counterfactual probe's results, when the paid pass ran. */
export const probeReadoutSchema = z.strictObject({
  driven: count,
  mattered: count,
  redundant: count,
  inconclusive: count,
  /** Skipped (cost nothing, posed nothing) — counted apart from inconclusive on purpose. */
  skipped: count,
  /** Draft edits and ordinary follow-up turns have no probe point. */
  unprobeable: count,
});
/** The counterfactual probe's results, when the paid pass ran. */
export type ProbeReadout = z.infer<typeof probeReadoutSchema>;

/**
 * The JSON readout of `sessions appraise`: exactly the fields of the reference's table, each
 * `null` where the reference says so or where its source could not be read (and then
 * `valence.partial` is true). Objects are strict: a field outside the table fails to parse.
 */
export const corpusAppraisalSchema = z.strictObject({
  /** Label counts over the sessions read (unreadable sessions are not labelled). */
  labels: z.record(labelSchema, count).nullable(),
  /** Positive and negative totals summed apart over the sessions read, never netted. */
  valence: z.strictObject({
    positive: z.number().nonnegative().nullable(),
    negative: z.number().nonnegative().nullable(),
    /** Some evidence was incomplete: a source not read whole, a session unreadable, a compaction. */
    partial: z.boolean(),
  }),
  /** Sessions whose runs named a goal. */
  named_a_goal: countOrNull,
  /** Sessions with an error attributed to a charter line by the sensor watching its store. */
  attributed_by_sensor: countOrNull,
  /** Sessions with an error whose own record named an existing charter line. */
  cite_a_charter_line: countOrNull,
  /** Sessions that parked a goal question; `null` when the questions could not be read. */
  goal_put_to_owner: countOrNull,
  /** Of those, sessions with a goal question answered. */
  goal_confirmed: countOrNull,
  /** Sessions in the population whose transcript was read (torn lines included). */
  sessions_read: countOrNull,
  /** Sessions whose transcript (or its head) could not be read: missing evidence. */
  sessions_unreadable: countOrNull,
  /** Whether each source was read whole (false if unreadable or a line was skipped). */
  outbox_read: z.boolean(),
  questions_read: z.boolean(),
  frontdoor_read: z.boolean(),
  learning_read: z.boolean(),
  charter_read: z.boolean(),
  closures_read: z.boolean(),
  workflows_read: z.boolean(),
  /** The owner's acts on this population's runs, each once however many sessions it names. */
  owner_acts: z.strictObject({
    task_closed: countOrNull,
    task_dropped: countOrNull,
    task_reopened: countOrNull,
    workflow_closed: countOrNull,
    workflow_cancelled: countOrNull,
    workflow_reopened: countOrNull,
    workflow_verify_failed: countOrNull,
  }),
  /** Rejected drafts of this population with a reason the owner gave at their own door. */
  reasoned_rejections: countOrNull,
  /** Rejected drafts with a reason not recorded as the owner's; never mined. */
  unattributed_rejections: countOrNull,
  /** The owner's verdicts on learner output, by store; never a run's score. */
  curation: z.strictObject({
    rules: z.strictObject({ retired: count, restored: count }).nullable(),
    reflections: z.strictObject({ dropped: count, edited: count }).nullable(),
    candidates: z.strictObject({ accepted: count, rejected: count, reverted: count }).nullable(),
  }),
  /** Always null: which episode a rejected graph fact came from is not readable from here. */
  graph_fact_rejections: z.null(),
  /** Development sessions excluded from the population. */
  tests_hidden: countOrNull,
  experiments_hidden: countOrNull,
  /** The paid pass's results; null when it did not run. */
  probe: probeReadoutSchema.nullable(),
  /** The comparison store, counted for one model; null when the store could not be read. */
  comparisons: z
    .strictObject({
      /** False when a line could not be read. */
      read: z.boolean(),
      /** The model of the newest comparison a model was run on. */
      model: z.string().nullable(),
      records: count,
      separated: count,
      tied: count,
      inconclusive: count,
      unreadable_verdict: count,
      judge_decided: count,
      by_kind: tally,
      /** separated / (separated + tied); null when nothing was decided. */
      separated_share: z.number().min(0).max(1).nullable(),
      other_models: count,
      /** Moments no structural test could pose, across the store: no model was run. */
      unposed: count,
      /** Other comparisons with no model recorded: unknown, never counted. */
      no_model: count,
    })
    .nullable(),
  /** Always null: the counts-only appraiser is retired; kept for readers of the old shape. */
  appraiser: z.null(),
  /** Anticipation's predictions, store-wide; null when their store could not be read. */
  predictions: z
    .strictObject({
      total: count,
      /** Prediction lines that could not be read. */
      unreadable: count,
      /** Whether the outbox (and the owner outcomes) were read whole. */
      outbox_read: z.boolean(),
      by_response: z.record(z.string(), predictionGroupSchema),
      by_concern: z.record(z.string(), predictionGroupSchema),
    })
    .nullable(),
  /** The text appraisals' expected acts checked against the owner's acts, for this population. */
  expectations: z
    .strictObject({
      /** False when the appraisal store had a line skipped. */
      read: z.boolean(),
      with_expectation: count,
      scored: count,
      hits: count,
      surprises: count,
      clean_surprises: count,
      pending: count,
      unknown: count,
      board_not_read: count,
      hit_rate: z.number().min(0).max(1).nullable(),
    })
    .nullable(),
  /** What went right, store-wide. */
  successes: z.strictObject({
    standing: countOrNull,
    by_kind: z.strictObject({
      draft_sent_unchanged: countOrNull,
      task_closed_done: countOrNull,
      workflow_closed_after_check: countOrNull,
      question_answered_then_finished: countOrNull,
    }),
    withdrawn: countOrNull,
    unknown: countOrNull,
    hidden: countOrNull,
    partial: z.boolean(),
    unreadable: z.array(z.enum(['sessions', 'outbox', 'closures', 'workflows', 'questions'])),
    /** The writing exemplars by origin; null when the outbox could not be read. */
    exemplars: z
      .strictObject({
        total: count,
        by_tool: tally,
        by_taint: z.record(taintSchema, count),
        served: z.literal(false),
      })
      .nullable(),
  }),
  /** Counts from the text-appraisal store; null when it could not be read. */
  text_appraisals: z
    .strictObject({
      /** Whether the appraisal and counterfactual stores were read whole. */
      read: z.boolean(),
      records: count,
      sessions: count,
      clean: count,
      not_clean: count,
      claims_kept: count,
      claims_dropped: count,
      dropped_by: tally,
      with_expected_act: count,
      goals_unresolved: count,
      /** null when the counterfactual store could not be read. */
      counterfactuals: countOrNull,
      counterfactuals_not_clean: countOrNull,
    })
    .nullable(),
  /**
   * Every source not read whole and why (`outbox`: `outbox/outbox.jsonl line 76: torn final
   * line`), one entry per damaged line or unreadable source. Present where the reader logged its
   * reads (the CLI's `--json` always does); absent from the bare readout.
   */
  not_read_whole: z.array(z.strictObject({ source: z.string(), what: z.string() })).optional(),
});
/** See {@link corpusAppraisalSchema}. */
export type CorpusAppraisal = z.infer<typeof corpusAppraisalSchema>;
