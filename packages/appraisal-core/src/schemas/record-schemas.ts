import { boardRecordSchema } from './board.js';
import { closureRecordSchema } from './closures.js';
import { comparisonRecordSchema, counterfactualRecordSchema } from './comparisons.js';
import { expectationScoreRecordSchema } from './expectation-scores.js';
import { citeSchema, goalErrorSchema, goalRefSchema, labelSchema } from './goal-error.js';
import {
  curationRecordSchema,
  ownerOutcomeRecordSchema,
  reflectionRecordSchema,
  textAppraisalRecordSchema,
} from './learning.js';
import { outboxRecordSchema } from './outbox.js';
import { predictionRecordSchema } from './predictions.js';
import { questionRecordSchema } from './questions.js';
import { requestRecordSchema } from './requests.js';
import { transcriptEventSchema } from './transcript.js';
import { workflowRecordSchema } from './workflows.js';

/**
 * Every record schema by its file name, for stores and harnesses to iterate: the build writes
 * each one as `dist/json-schema/<name>.json` (the input shape, so older versions validate).
 */
export const recordSchemas = {
  'goal-error': goalErrorSchema,
  cite: citeSchema,
  'goal-ref': goalRefSchema,
  label: labelSchema,
  'transcript-event': transcriptEventSchema,
  'outbox-record': outboxRecordSchema,
  'question-record': questionRecordSchema,
  'request-record': requestRecordSchema,
  'board-record': boardRecordSchema,
  'closure-record': closureRecordSchema,
  'workflow-record': workflowRecordSchema,
  'reflection-record': reflectionRecordSchema,
  'curation-record': curationRecordSchema,
  'owner-outcome-record': ownerOutcomeRecordSchema,
  'text-appraisal-record': textAppraisalRecordSchema,
  'comparison-record': comparisonRecordSchema,
  'counterfactual-record': counterfactualRecordSchema,
  'expectation-score-record': expectationScoreRecordSchema,
  'prediction-record': predictionRecordSchema,
} as const;

/** The name of one entry of {@link recordSchemas}. */
export type RecordSchemaName = keyof typeof recordSchemas;
