/**
 * Where everything lives in a mecha home, relative to its root. Each folder is one store with
 * one writer lock (`<folder>/.lock`); a session's transcript has its own lock beside it.
 */
export const homeLayout = {
  config: 'config.toml',
  charter: 'charter.toml',
  manifest: 'manifest.json',
  sessions: 'sessions',
  outbox: 'outbox/outbox.jsonl',
  questions: 'questions/questions.jsonl',
  requests: 'frontdoor/requests.jsonl',
  closures: 'closures/closures.jsonl',
  workflows: 'workflows/workflows.jsonl',
  board: 'board/board.jsonl',
  reflections: 'learning/reflections.jsonl',
  rules: 'learning/rules.jsonl',
  ruleVerdicts: 'learning/curation-rules.jsonl',
  reflectionVerdicts: 'learning/curation-reflections.jsonl',
  candidateVerdicts: 'learning/curation-candidates.jsonl',
  distilled: 'learning/distilled.jsonl',
  ownerOutcomes: 'outcomes/owner-outcomes.jsonl',
  textAppraisals: 'appraisals/appraisals.jsonl',
  scores: 'appraisals/scores.jsonl',
  counterfactuals: 'appraisals/counterfactuals.jsonl',
  comparisons: 'appraisals/comparisons.jsonl',
  predictions: 'anticipation/predictions.jsonl',
  shells: 'runs/shells.jsonl',
} as const;

/** The name of one entry of {@link homeLayout}. */
export type HomeEntry = keyof typeof homeLayout;

/** The lock file of a store: one per folder, so `learning/` has one lock for all its files. */
export function lockFileOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash === -1 ? `${file}.lock` : `${file.slice(0, slash)}/.lock`;
}

/** How the manifest names the sessions store: the folder, with a trailing slash. */
export const sessionsEntry = `${homeLayout.sessions}/`;

/** Every path a manifest may list: the JSONL stores, the sessions folder and the charter. */
export const manifestEntries: readonly string[] = [
  ...Object.entries(homeLayout)
    .filter(([key]) => !['config', 'manifest', 'sessions'].includes(key))
    .map(([, file]) => file),
  sessionsEntry,
];
