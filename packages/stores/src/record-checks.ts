import type { HomeEntry } from './home-layout.js';
import type { RecordValidator } from './record-validator.js';
import {
  boardReader,
  candidateVerdictsReader,
  closuresReader,
  comparisonsReader,
  counterfactualsReader,
  distilledReader,
  outboxReader,
  ownerOutcomesReader,
  predictionsReader,
  questionsReader,
  reflectionsReader,
  reflectionVerdictsReader,
  requestsReader,
  rulesReader,
  ruleVerdictsReader,
  scoresReader,
  shellsReader,
  textAppraisalsReader,
  transcriptReader,
  workflowsReader,
} from './store-schemas.js';

/** The entries of {@link homeLayout} written one JSON record a line (`sessions`: a transcript's). */
export type RecordEntry = Exclude<HomeEntry, 'config' | 'charter' | 'manifest'>;

/**
 * The check each store reads its lines with, by its entry of `homeLayout` (`sessions` checks
 * one transcript event): what a writer outside the stores (the home generator) validates each
 * record with before it writes the line, so that it writes only what the stores read back.
 */
export const recordChecks: Readonly<Record<RecordEntry, RecordValidator<unknown>>> = {
  sessions: transcriptReader,
  outbox: outboxReader,
  questions: questionsReader,
  requests: requestsReader,
  closures: closuresReader,
  workflows: workflowsReader,
  board: boardReader,
  reflections: reflectionsReader,
  rules: rulesReader,
  ruleVerdicts: ruleVerdictsReader,
  reflectionVerdicts: reflectionVerdictsReader,
  candidateVerdicts: candidateVerdictsReader,
  distilled: distilledReader,
  ownerOutcomes: ownerOutcomesReader,
  textAppraisals: textAppraisalsReader,
  scores: scoresReader,
  counterfactuals: counterfactualsReader,
  comparisons: comparisonsReader,
  predictions: predictionsReader,
  shells: shellsReader,
};
