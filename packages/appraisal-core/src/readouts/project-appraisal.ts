import type { AppraisalPorts } from '../ports/appraisal-ports.js';
import { indexSessionStores, readSessionStores } from '../ports/store-index.js';
import { readTranscripts } from '../ports/transcript-cache.js';
import { sumValence, type Valence } from '../rules/valence.js';
import type { BoardRecord } from '../schemas/board.js';
import type { ClosureRecord } from '../schemas/closures.js';
import { type Label, labelSchema } from '../schemas/goal-error.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { formatValence } from './format-valence.js';
import { readSession, type SessionReading } from './read-session.js';

/** Why a project has no confident reading. */
export type ProjectUnconfidentReason =
  | 'board_unreadable'
  | 'board_truncated'
  | 'closures_unreadable';

/**
 * A project's reading when its last open task closes: positive and negative summed apart,
 * label counts across the sessions linked to its tasks, and what could not be counted — or
 * no confident reading at all when the board answer was missing or truncated.
 */
export type ProjectAppraisal =
  | {
      readonly confident: false;
      readonly project_id: string;
      readonly reason: ProjectUnconfidentReason;
      readonly line: string;
    }
  | {
      readonly confident: true;
      readonly project_id: string;
      readonly line: string;
      /** The project's tasks, by each board row's `project_id`. */
      readonly tasks: number;
      readonly positive: number;
      readonly negative: number;
      /** Label counts over the sessions appraised, each session once. */
      readonly labels: Readonly<Record<Label, number>>;
      /** Tasks no closure names a session for: nobody delegated them. */
      readonly tasks_never_delegated: number;
      readonly sessions_appraised: number;
      /** Linked sessions whose transcript could not be read. */
      readonly sessions_not_appraisable: number;
      /** Some evidence was incomplete; the sums may be short. */
      readonly partial: boolean;
      /** The closing task staged a follow-up under this project. */
      readonly follow_up_staged: boolean;
    };

/** The sources a project reading is folded from. */
export interface ProjectEvidence {
  readonly board: SourceRead<BoardRecord>;
  readonly closures: SourceRead<ClosureRecord>;
  /** The reading of each linked session, by session id. */
  readonly readings: ReadonlyMap<string, SessionReading>;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

const unconfidentWords: Record<ProjectUnconfidentReason, string> = {
  board_unreadable: 'the board answer was missing',
  board_truncated: 'the board answer was truncated',
  closures_unreadable: 'the closure record could not be read',
};

/** The sessions linked to each of a project's tasks: those its closures name. */
export function projectSessions(
  board: readonly BoardRecord[],
  closures: readonly ClosureRecord[],
  projectId: string,
): Map<string, Set<string>> {
  const tasks = new Map<string, Set<string>>();
  for (const row of board) {
    if (row.kind === 'task' && row.project_id === projectId) tasks.set(row.id, new Set());
  }
  for (const closure of closures) {
    const linked = tasks.get(closure.task_id);
    if (linked !== undefined) for (const sessionId of closure.session_ids) linked.add(sessionId);
  }
  return tasks;
}

/**
 * Folds a project's reading from its evidence. Membership is by each board row's
 * `project_id`, never a matching name; a board that was unreadable or came back partial
 * (truncated) gives no confident reading. It creates no record and stages nothing itself.
 */
export function projectAppraisal(
  projectId: string,
  evidence: ProjectEvidence,
  followUpStaged = false,
): ProjectAppraisal {
  const unconfident = (reason: ProjectUnconfidentReason): ProjectAppraisal => ({
    confident: false,
    project_id: projectId,
    reason,
    line: `mecha's appraisal of ${projectId}: no confident reading (${unconfidentWords[reason]})`,
  });
  if (evidence.board.state === 'unreadable') return unconfident('board_unreadable');
  if (evidence.board.state === 'partial') return unconfident('board_truncated');
  if (evidence.closures.state === 'unreadable') return unconfident('closures_unreadable');
  const tasks = projectSessions(evidence.board.records, evidence.closures.records, projectId);
  const sessions = new Set<string>();
  let neverDelegated = 0;
  for (const linked of tasks.values()) {
    if (linked.size === 0) neverDelegated += 1;
    for (const sessionId of linked) sessions.add(sessionId);
  }
  const labels = Object.fromEntries(labelSchema.options.map((label) => [label, 0])) as Record<
    Label,
    number
  >;
  const valences: Valence[] = [];
  let appraised = 0;
  let notAppraisable = 0;
  let partial = evidence.closures.state !== 'read';
  for (const sessionId of [...sessions].sort()) {
    const reading = evidence.readings.get(sessionId);
    if (reading === undefined || !reading.transcriptRead) {
      notAppraisable += 1;
      partial = true;
      continue;
    }
    appraised += 1;
    labels[reading.label] += 1;
    valences.push(reading.valence);
  }
  const summed = sumValence(valences);
  const { positive, negative } = summed;
  if (summed.partial) partial = true;
  const counted = labelSchema.options
    .filter((label) => labels[label] > 0)
    .map((label) => `${label} ${labels[label]}`);
  const parts = [
    `${formatValence({ positive, negative, partial }) || (partial ? 'nothing signed…' : 'nothing signed')} over ${plural(appraised, 'session', 'sessions')}${counted.length === 0 ? '' : ` (${counted.join(', ')})`}`,
  ];
  if (neverDelegated > 0) parts.push(`${plural(neverDelegated, 'task', 'tasks')} never delegated`);
  if (notAppraisable > 0) {
    parts.push(`${plural(notAppraisable, 'session', 'sessions')} not appraisable`);
  }
  if (followUpStaged) parts.push('a follow-up was staged under this project');
  return {
    confident: true,
    project_id: projectId,
    line: `mecha's appraisal of ${projectId}: ${parts.join('; ')}`,
    tasks: tasks.size,
    positive,
    negative,
    labels,
    tasks_never_delegated: neverDelegated,
    sessions_appraised: appraised,
    sessions_not_appraisable: notAppraisable,
    partial,
    follow_up_staged: followUpStaged,
  };
}

/**
 * Appraises a project when the owner closes its last open task: reads the board, the closure
 * record and every session linked to the project's tasks (each once), and folds the reading.
 */
export async function appraiseProject(
  ports: AppraisalPorts,
  projectId: string,
  options: { readonly followUpStaged?: boolean } = {},
): Promise<ProjectAppraisal> {
  const [board, stores, charter] = await Promise.all([
    ports.board.read(),
    readSessionStores(ports),
    ports.charter.lines(),
  ]);
  const tasks = projectSessions(
    board.state === 'unreadable' ? [] : board.records,
    stores.closures.state === 'unreadable' ? [] : stores.closures.records,
    projectId,
  );
  const sessionIds = [...new Set([...tasks.values()].flatMap((linked) => [...linked]))].sort();
  const transcripts = await readTranscripts(sessionIds, (sessionId) =>
    ports.sessions.transcript(sessionId),
  );
  const index = indexSessionStores(stores);
  const readings = new Map<string, SessionReading>();
  sessionIds.forEach((sessionId, position) => {
    const transcript = transcripts[position] as SourceRead<TranscriptEvent>;
    readings.set(sessionId, readSession(index.evidenceFor(sessionId, transcript), charter));
  });
  return projectAppraisal(
    projectId,
    { board, closures: stores.closures, readings },
    options.followUpStaged ?? false,
  );
}
