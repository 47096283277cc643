export { codexNotifyTypes, importFromCodexNotify } from './import-from-codex-notify.js';
export type { HookImport, HookImported, HookRefusal } from './import-from-hook.js';
export { claudeCodeHookEvents, importFromClaudeCodeHook } from './import-from-hook.js';
export type {
  DamagedLine,
  ImportFailure,
  ImportOptions,
  ImportReport,
  SkippedFile,
} from './import-history.js';
export { importHistory } from './import-history.js';
export { ledgerFile, ledgerPointers } from './import-ledger.js';
export type { BenchmarkFormat, BenchmarkJobs, ReadJobsOptions } from './read-benchmark-jobs.js';
export { readBenchmarkJobs } from './read-benchmark-jobs.js';
export type { ImportTool, SignalCounts } from './session-state.js';
export { defaultSourceFolder } from './source-files.js';
export type { Scored } from './validity/auc.js';
export type { AucInterval, IntervalOptions } from './validity/bootstrap-interval.js';
export { aucInterval } from './validity/bootstrap-interval.js';
export type {
  ExclusionReason,
  RateRow,
  ValidityOptions,
  ValidityReport,
  ValidityReported,
  ValidityResult,
  ValidityRow,
} from './validity/validity-report.js';
export { validityReport } from './validity/validity-report.js';
export type { WatchEnd, WatchOptions } from './watch-history.js';
export { watchHistory } from './watch-history.js';
