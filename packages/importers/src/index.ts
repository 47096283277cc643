export type { HookImport } from './import-from-hook.js';
export { claudeCodeHookEvents, importFromClaudeCodeHook } from './import-from-hook.js';
export type {
  DamagedLine,
  ImportFailure,
  ImportOptions,
  ImportReport,
  SkippedFile,
} from './import-history.js';
export { importHistory } from './import-history.js';
export type { LedgerEntry } from './import-ledger.js';
export { ledgerEntrySchema, ledgerFile, ledgerPointers, readLedger } from './import-ledger.js';
export type { LineOutcome } from './map-claude-code.js';
export { mapClaudeCodeLine } from './map-claude-code.js';
export { mapCodexLine } from './map-codex.js';
export type { TrajectoryReading } from './map-mini-swe-agent.js';
export { mapMiniSweAgentTrajectory } from './map-mini-swe-agent.js';
export type {
  BenchmarkFormat,
  BenchmarkJobs,
  BenchmarkTrial,
  ReadJobsOptions,
  TrialOutcome,
  TrialSession,
} from './read-benchmark-jobs.js';
export { readBenchmarkJobs } from './read-benchmark-jobs.js';
export type { ReadLinesOptions, SourceLine } from './read-lines.js';
export { defaultMaxLineBytes, readLines } from './read-lines.js';
export type {
  BenchmarkAgent,
  ImportTool,
  SessionState,
  SignalCounts,
} from './session-builder.js';
export { newSessionState, SessionBuilder } from './session-builder.js';
export { defaultSourceFolder, listSourceFiles } from './source-files.js';
export type { Scored } from './validity/auc.js';
export { aucMannWhitney } from './validity/auc.js';
export type { AucInterval, IntervalOptions } from './validity/bootstrap-interval.js';
export { aucInterval } from './validity/bootstrap-interval.js';
export { rulesVersion } from './validity/rules-version.js';
export type {
  ExclusionReason,
  RateRow,
  TrialReadout,
  ValidityOptions,
  ValidityReport,
  ValidityResult,
  ValidityRow,
} from './validity/validity-report.js';
export { readoutOf, validityReport } from './validity/validity-report.js';
export type { ReportReading, SyntheticReason, VerifierOutcome } from './verifier-outcome.js';
export { readSweBenchReport, verifierOutcomeSchema } from './verifier-outcome.js';
export type { WatchEnd, WatchOptions } from './watch-history.js';
export { watchHistory } from './watch-history.js';
