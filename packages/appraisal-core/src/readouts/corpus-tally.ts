import type { CharterLine } from '@mecha/charter';
import type { SessionEvidence } from '../ports/session-evidence.js';
import type { SessionStores } from '../ports/session-stores.js';
import type { SessionStoreIndex } from '../ports/store-index.js';
import { recordsOrNone } from '../ports/store-index.js';
import { contributionTable } from '../rules/contribution-table.js';
import { expectationCoverage, hasExpectation, scoreExpectation } from '../rules/expectations.js';
import type { SignedEntry, SignedRowId } from '../rules/signed-entry.js';
import type { Valence } from '../rules/valence.js';

import type { CorpusAppraisal } from '../schemas/corpus-appraisal.js';
import type { Label } from '../schemas/goal-error.js';
import { labelSchema } from '../schemas/goal-error.js';
import type { TextAppraisalRecord } from '../schemas/learning.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { readSession } from './read-session.js';

type OwnerAct = keyof CorpusAppraisal['owner_acts'];

// Each owner act is the entry of one row of the contribution table, read off the entry itself.
const actRows = {
  taskClosedDone: 'task_closed',
  taskClosedDropped: 'task_dropped',
  taskReopenedAfterDone: 'task_reopened',
  workflowClosed: 'workflow_closed',
  workflowCancelled: 'workflow_cancelled',
  workflowReopenedAfterClose: 'workflow_reopened',
  workflowArtifactCheckFailed: 'workflow_verify_failed',
} as const satisfies Partial<Record<SignedRowId, OwnerAct>>;
type ActRow = keyof typeof actRows;

function actOf(entry: SignedEntry): { act: OwnerAct; id: string } | undefined {
  if (!(entry.row in actRows)) return undefined;
  const cite = entry.error.cite;
  const id =
    cite.kind === 'closure' ? cite.closure_id : cite.kind === 'workflow' ? cite.workflow_id : '';
  return { act: actRows[entry.row as ActRow], id };
}

function goalQuestions(evidence: SessionEvidence): { put: boolean; confirmed: boolean } {
  const questions = recordsOrNone(evidence.questions);
  const goalIds = new Set(
    questions
      .filter((record) => record.type === 'parked' && record.purpose === 'goal')
      .map((record) => record.question_id),
  );
  return {
    put: goalIds.size > 0,
    confirmed: questions.some(
      (record) => record.type === 'answered' && goalIds.has(record.question_id),
    ),
  };
}

function rejectionsWithReason(evidence: SessionEvidence): { owner: number; other: number } {
  const seen = new Set<string>();
  let owner = 0;
  let other = 0;
  for (const record of recordsOrNone(evidence.outbox)) {
    if (record.type !== 'outcome' || record.outcome !== 'rejected') continue;
    if (record.reason === undefined || record.reason === '' || seen.has(record.draft_id)) continue;
    seen.add(record.draft_id);
    if (record.sender === 'owner') owner += 1;
    else other += 1;
  }
  return { owner, other };
}

type ExpectationScore = Parameters<typeof expectationCoverage>[0][number];

/** What {@link CorpusTally} consults for each session: read once, before the pass. */
export interface CorpusTallyInputs {
  readonly index: SessionStoreIndex;
  readonly charter: SourceRead<CharterLine>;
  readonly appraisals: SourceRead<TextAppraisalRecord>;
  readonly now: Date;
  readonly resolved: ReadonlyMap<string, ReadonlyMap<string, boolean>> | undefined;
}

/**
 * The per-session counts of the corpus appraisal, folded one transcript at a time as the pass
 * over the session store reads it: labels, valences, goals, attributions, rejections, owner acts
 * and expectation scores.
 */
export class CorpusTally {
  readonly labels = Object.fromEntries(labelSchema.options.map((label) => [label, 0])) as Record<
    Label,
    number
  >;
  readonly valences: Valence[] = [];
  sessionsRead = 0;
  sessionsUnreadable = 0;
  namedAGoal = 0;
  bySensor = 0;
  citesLine = 0;
  goalPut = 0;
  goalConfirmed = 0;
  reasoned = 0;
  unattributed = 0;
  private readonly actCounts = new Map<string, number>();
  private readonly scores: ExpectationScore[] = [];
  private readonly appraisalsBySession = new Map<string, TextAppraisalRecord[]>();

  constructor(private readonly inputs: CorpusTallyInputs) {
    for (const record of recordsOrNone(inputs.appraisals)) {
      const list = this.appraisalsBySession.get(record.session_id) ?? [];
      list.push(record);
      this.appraisalsBySession.set(record.session_id, list);
    }
  }

  /** Folds one session of the population, its transcript as read (or not). */
  fold(sessionId: string, transcript: SourceRead<TranscriptEvent>): void {
    if (transcript.state === 'unreadable') {
      this.sessionsUnreadable += 1;
      return;
    }
    this.sessionsRead += 1;
    const { index, charter, resolved } = this.inputs;
    const evidence = index.evidenceFor(sessionId, transcript);
    const reading = readSession(evidence, charter, resolved?.get(sessionId));
    this.labels[reading.label] += 1;
    this.valences.push(reading.valence);
    if (
      transcript.records.some((event) => event.type === 'run_start' && event.goal !== undefined)
    ) {
      this.namedAGoal += 1;
    }
    if (reading.attributedBySensor) this.bySensor += 1;
    if (reading.citesCharterLine) this.citesLine += 1;
    const goals = goalQuestions(evidence);
    if (goals.put) this.goalPut += 1;
    if (goals.confirmed) this.goalConfirmed += 1;
    const rejections = rejectionsWithReason(evidence);
    this.reasoned += rejections.owner;
    this.unattributed += rejections.other;
    this.countActs(reading.entries);
    this.scoreExpectations(sessionId, evidence);
  }

  /** The owner's acts by kind; a kind is `null` when its store (or the listing) was not read. */
  ownerActs(stores: SessionStores, listed: boolean): CorpusAppraisal['owner_acts'] {
    return Object.fromEntries(
      (Object.entries(actRows) as [ActRow, OwnerAct][]).map(([row, act]) => {
        const source = stores[contributionTable[row].source];
        let total = 0;
        for (const [key, n] of this.actCounts) if (key.startsWith(`${act}|`)) total += n;
        return [act, listed && source.state !== 'unreadable' ? total : null];
      }),
    ) as CorpusAppraisal['owner_acts'];
  }

  /** The expectations the text appraisals declared, as covered across the sessions read. */
  coverage(): ReturnType<typeof expectationCoverage> {
    return expectationCoverage(this.scores);
  }

  // An act that signs on several sessions of the population is still one act.
  private countActs(entries: readonly SignedEntry[]): void {
    const occurrences = new Map<string, number>();
    for (const entry of entries) {
      const act = actOf(entry);
      if (act === undefined) continue;
      const key = `${act.act}|${act.id}`;
      occurrences.set(key, (occurrences.get(key) ?? 0) + 1);
    }
    for (const [key, n] of occurrences) {
      this.actCounts.set(key, Math.max(this.actCounts.get(key) ?? 0, n));
    }
  }

  private scoreExpectations(sessionId: string, evidence: SessionEvidence): void {
    for (const appraisal of this.appraisalsBySession.get(sessionId) ?? []) {
      if (!hasExpectation(appraisal)) continue;
      this.scores.push({
        // No board is read here, so no due date is windowed and the zone is never consulted.
        score: scoreExpectation(appraisal, evidence, {
          now: this.inputs.now,
          timeZone: 'UTC',
          charter: this.inputs.charter,
        }),
        clean: appraisal.taint === 'clean',
      });
    }
  }
}
