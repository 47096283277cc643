// The one failure shape for reads lives in @mecha/errors; appraisal-core re-exports it so its
// ports and readouts keep naming it from here.
export type { SkippedLine, SourceRead } from '@mecha/errors';
export { isComplete, recordsOf } from '@mecha/errors';
