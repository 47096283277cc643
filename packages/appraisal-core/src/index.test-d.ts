// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.
import { expectTypeOf } from 'vitest';
import {
  type AppraisalChip,
  type AppraisalPorts,
  appraisalChip,
  appraiseCorpus,
  appraiseRun,
  appraiseSession,
  badgeAfter,
  type CorpusAppraisal,
  type CorpusOptions,
  type EventSource,
  eventSourceText,
  explainLabel,
  formatValence,
  type LabelReason,
  type RunAppraisal,
  type SessionAppraisal,
  type StatusBadge,
  type TranscriptEvent,
  type ValenceSums,
} from './index.js';

expectTypeOf(appraiseRun).parameters.toEqualTypeOf<[run: readonly TranscriptEvent[]]>();
expectTypeOf(appraiseRun).returns.toEqualTypeOf<RunAppraisal>();
expectTypeOf(appraiseSession).parameters.toEqualTypeOf<[ports: AppraisalPorts, query: string]>();
expectTypeOf(appraiseSession).returns.resolves.toEqualTypeOf<SessionAppraisal>();
expectTypeOf(appraiseCorpus).parameters.toEqualTypeOf<
  [ports: AppraisalPorts, options: CorpusOptions]
>();
expectTypeOf(appraiseCorpus).returns.resolves.toEqualTypeOf<CorpusAppraisal>();
expectTypeOf(formatValence).parameters.toEqualTypeOf<[valence: ValenceSums]>();
expectTypeOf(formatValence).returns.toEqualTypeOf<string>();
expectTypeOf(appraisalChip).returns.toEqualTypeOf<AppraisalChip | undefined>();
expectTypeOf(eventSourceText).parameters.toEqualTypeOf<[source: EventSource]>();
expectTypeOf(eventSourceText).returns.toEqualTypeOf<string>();
expectTypeOf(badgeAfter).returns.toEqualTypeOf<StatusBadge | undefined>();
// What appraiseRun returns is what explainLabel reads.
declare const reading: RunAppraisal;
expectTypeOf(explainLabel(reading)).toEqualTypeOf<LabelReason>();
