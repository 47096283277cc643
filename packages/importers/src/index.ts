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
export { ledgerEntrySchema, ledgerFile, readLedger } from './import-ledger.js';
export type { LineOutcome } from './map-claude-code.js';
export { mapClaudeCodeLine } from './map-claude-code.js';
export { mapCodexLine } from './map-codex.js';
export type { ReadLinesOptions, SourceLine } from './read-lines.js';
export { defaultMaxLineBytes, readLines } from './read-lines.js';
export type { ImportTool, SessionState, SignalCounts } from './session-builder.js';
export { newSessionState, SessionBuilder } from './session-builder.js';
export { defaultSourceFolder, listSourceFiles } from './source-files.js';
