import {
  boardRecordSchema,
  closureRecordSchema,
  comparisonRecordSchema,
  counterfactualRecordSchema,
  curationRecordSchema,
  currentTranscriptEventSchemas,
  draftOutcomeSchema,
  draftStagedSchema,
  expectationScoreRecordSchema,
  outboxRecordSchema,
  ownerOutcomeRecordSchema,
  predictionRecordSchema,
  questionRecordSchema,
  reflectionRecordSchema,
  requestRecordSchema,
  textAppraisalRecordSchema,
  transcriptEventSchema,
  workflowRecordSchema,
} from '@mecha/appraisal-core';
import { z } from 'zod';
import { recordValidator } from './record-validator.js';
import { distilledRecordSchema } from './schemas/distilled-record.js';
import { ruleRecordSchema } from './schemas/rule-record.js';

// Readers accept every version a store may hold (older ones are upgraded); writers write only
// the current version of each record, and nothing writes the retired appraiser's verdicts.

/** What the recorder may append to a transcript: every current event kind. */
export const transcriptWriter = z.discriminatedUnion('type', currentTranscriptEventSchemas);
/** A transcript event as a writer passes it (defaults may be left out). */
export type TranscriptEventInput = z.input<typeof transcriptWriter>;

/** Outbox lines a writer may append: a staged draft, or an outcome stamped with its sender. */
export const outboxWriter = z.union([draftStagedSchema, draftOutcomeSchema]);
/** An outbox line as a writer passes it. */
export type OutboxRecordInput = z.input<typeof outboxWriter>;

/** A closure as written now: version 2, with who closed and whether a person was present. */
export const closureWriter = closureRecordSchema.options[0];
/** A closure record as a writer passes it. */
export type ClosureRecordInput = z.input<typeof closureWriter>;

/** Curation verdicts, one store per target so that each is read on its own. */
export const ruleVerdictSchema = curationRecordSchema.extend({ target: z.literal('rule') });
export const reflectionVerdictSchema = curationRecordSchema.extend({
  target: z.literal('reflection'),
});
export const candidateVerdictSchema = curationRecordSchema.extend({
  target: z.literal('candidate'),
});

export const transcriptReader = recordValidator(transcriptEventSchema);
export const outboxReader = recordValidator(outboxRecordSchema);
export const questionsReader = recordValidator(questionRecordSchema);
export const requestsReader = recordValidator(requestRecordSchema);
export const closuresReader = recordValidator(closureRecordSchema);
export const workflowsReader = recordValidator(workflowRecordSchema);
export const boardReader = recordValidator(boardRecordSchema);
export const reflectionsReader = recordValidator(reflectionRecordSchema);
export const rulesReader = recordValidator(ruleRecordSchema);
export const ruleVerdictsReader = recordValidator(ruleVerdictSchema);
export const reflectionVerdictsReader = recordValidator(reflectionVerdictSchema);
export const candidateVerdictsReader = recordValidator(candidateVerdictSchema);
export const distilledReader = recordValidator(distilledRecordSchema);
export const ownerOutcomesReader = recordValidator(ownerOutcomeRecordSchema);
export const textAppraisalsReader = recordValidator(textAppraisalRecordSchema);
export const scoresReader = recordValidator(expectationScoreRecordSchema);
export const counterfactualsReader = recordValidator(counterfactualRecordSchema);
export const comparisonsReader = recordValidator(comparisonRecordSchema);
export const predictionsReader = recordValidator(predictionRecordSchema);
