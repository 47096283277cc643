import type { AppraisalPorts } from '../ports/appraisal-ports.js';
import type { SessionEvidence } from '../ports/session-evidence.js';
import { indexSessionStores, readSessionStores, recordsOrNone } from '../ports/store-index.js';
import { runBoundaries, type TranscriptReader } from '../ports/transcript-cache.js';
import { contributionTable } from '../rules/contribution-table.js';
import { expectationCoverage, hasExpectation, scoreExpectation } from '../rules/expectations.js';
import { scanPopulation } from '../rules/population.js';
import type { PopulationOptions } from '../rules/population-options.js';
import { appraisedEventTypes } from '../rules/read-transcript.js';
import type { SignedEntry, SignedRowId } from '../rules/signed-entry.js';
import { sumValence, type Valence } from '../rules/valence.js';
import type { CorpusAppraisal, ProbeReadout } from '../schemas/corpus-appraisal.js';
import type { Label } from '../schemas/goal-error.js';
import { labelSchema } from '../schemas/goal-error.js';
import type { TextAppraisalRecord } from '../schemas/learning.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { readSession } from './read-session.js';
import {
  comparisonsSection,
  curationSection,
  predictionsSection,
  textAppraisalsSection,
} from './store-sections.js';
import { collectSuccesses } from './successes/successes.js';

/** Options of {@link appraiseCorpus}: the population, and the paid pass's results if it ran. */
export interface CorpusOptions extends PopulationOptions {
  /** The counterfactual probe's results, when the paid pass ran; `probe` is null otherwise. */
  readonly probe?: ProbeReadout;
  /**
   * The probe's findings by session, each keyed by intervention kind and turn: `true` where the
   * intervention mattered, `false` where the run got there anyway. They fill `controllable`.
   */
  readonly resolved?: ReadonlyMap<string, ReadonlyMap<string, boolean>>;
}

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

/**
 * The offline scan behind `sessions appraise --json`: every store read once and indexed by
 * session, then one pass over the session store that appraises each session of the population
 * from those maps as its transcript is read (then lets it go, so memory does not grow with the
 * transcripts), and the store-wide sections beside them. Returns exactly the fields of the
 * reference's table; a source that could not be read makes its fields `null` (never 0) and
 * `valence.partial` true.
 */
export async function appraiseCorpus(
  ports: AppraisalPorts,
  options: CorpusOptions,
): Promise<CorpusAppraisal> {
  // Everything a session's appraisal consults is read first, so each transcript can be folded
  // the moment the single pass over the session store reads it.
  const [
    stores,
    charter,
    rules,
    reflectionVerdicts,
    candidates,
    appraisals,
    counterfactuals,
    comparisons,
    predictions,
  ] = await Promise.all([
    readSessionStores(ports),
    ports.charter.lines(),
    ports.learning.curation('rule'),
    ports.learning.curation('reflection'),
    ports.learning.curation('candidate'),
    ports.learning.textAppraisals(),
    ports.learning.counterfactuals(),
    ports.learning.comparisons(),
    ports.predictions.read(),
  ]);
  const index = indexSessionStores(stores);

  const appraisalsBySession = new Map<string, TextAppraisalRecord[]>();
  for (const record of recordsOrNone(appraisals)) {
    const list = appraisalsBySession.get(record.session_id) ?? [];
    list.push(record);
    appraisalsBySession.set(record.session_id, list);
  }

  const labels = Object.fromEntries(labelSchema.options.map((label) => [label, 0])) as Record<
    Label,
    number
  >;
  const valences: Valence[] = [];
  let partial = false;
  let sessionsRead = 0;
  let sessionsUnreadable = 0;
  let namedAGoal = 0;
  let bySensor = 0;
  let citesLine = 0;
  let goalPut = 0;
  let goalConfirmed = 0;
  let reasoned = 0;
  let unattributed = 0;
  const actCounts = new Map<string, number>();
  const scores: Parameters<typeof expectationCoverage>[0][number][] = [];

  // The successes reader asks after the sessions of parked questions: keep only their runs'
  // starts and ends, so no whole transcript outlives its batch.
  const questionSessions = new Set<string>();
  for (const record of recordsOrNone(stores.questions)) {
    if (record.type === 'parked') questionSessions.add(record.session_id);
  }
  const runsBySession = new Map<string, Promise<SourceRead<TranscriptEvent>>>();

  const fold = (sessionId: string, transcript: SourceRead<TranscriptEvent>): void => {
    if (questionSessions.has(sessionId)) {
      runsBySession.set(sessionId, Promise.resolve(runBoundaries(transcript)));
    }
    if (transcript.state === 'unreadable') {
      sessionsUnreadable += 1;
      return;
    }
    sessionsRead += 1;
    const evidence = index.evidenceFor(sessionId, transcript);
    const reading = readSession(evidence, charter, options.resolved?.get(sessionId));
    labels[reading.label] += 1;
    valences.push(reading.valence);
    if (
      transcript.records.some((event) => event.type === 'run_start' && event.goal !== undefined)
    ) {
      namedAGoal += 1;
    }
    if (reading.attributedBySensor) bySensor += 1;
    if (reading.citesCharterLine) citesLine += 1;
    const goals = goalQuestions(evidence);
    if (goals.put) goalPut += 1;
    if (goals.confirmed) goalConfirmed += 1;
    const rejections = rejectionsWithReason(evidence);
    reasoned += rejections.owner;
    unattributed += rejections.other;

    // An act that signs on several sessions of the population is still one act.
    const occurrences = new Map<string, number>();
    for (const entry of reading.entries) {
      const act = actOf(entry);
      if (act === undefined) continue;
      const key = `${act.act}|${act.id}`;
      occurrences.set(key, (occurrences.get(key) ?? 0) + 1);
    }
    for (const [key, n] of occurrences) actCounts.set(key, Math.max(actCounts.get(key) ?? 0, n));

    for (const appraisal of appraisalsBySession.get(sessionId) ?? []) {
      if (!hasExpectation(appraisal)) continue;
      scores.push({
        // No board is read here, so no due date is windowed and the zone is never consulted.
        score: scoreExpectation(appraisal, evidence, {
          now: options.now,
          timeZone: 'UTC',
          charter,
        }),
        clean: appraisal.taint === 'clean',
      });
    }
  };
  const { listing, population } = await scanPopulation(ports.sessions, {
    population: options,
    events: [...appraisedEventTypes],
    visit: (member, read) => fold(member.sessionId, read),
  });
  const listed = listing.state !== 'unreadable';
  sessionsUnreadable += population.headUnreadable;
  // Sessions outside the population are read when asked for, once each, cut down the same way.
  const read: TranscriptReader = (sessionId) => {
    let runs = runsBySession.get(sessionId);
    if (runs === undefined) {
      runs = ports.sessions.transcript(sessionId).then(runBoundaries);
      runsBySession.set(sessionId, runs);
    }
    return runs;
  };

  const ownerActs = Object.fromEntries(
    (Object.entries(actRows) as [ActRow, OwnerAct][]).map(([row, act]) => {
      const source = stores[contributionTable[row].source];
      let total = 0;
      for (const [key, n] of actCounts) if (key.startsWith(`${act}|`)) total += n;
      return [act, listed && source.state !== 'unreadable' ? total : null];
    }),
  ) as CorpusAppraisal['owner_acts'];

  const successes = await collectSuccesses(
    {
      listing,
      outbox: stores.outbox,
      closures: stores.closures,
      workflows: stores.workflows,
      questions: stores.questions,
    },
    read,
    { includeTests: options.includeTests === true || options.kind === 'test' },
  );
  const exemplars = successes.exemplars;
  const byTool: Record<string, number> = {};
  const byTaint = { clean: 0, third_party: 0, unknown: 0 };
  for (const exemplar of exemplars ?? []) {
    byTool[exemplar.tool] = (byTool[exemplar.tool] ?? 0) + 1;
    byTaint[exemplar.taint] += 1;
  }

  const allSources: readonly SourceRead<unknown>[] = [
    listing,
    ...Object.values(stores),
    charter,
    rules,
    reflectionVerdicts,
    candidates,
    appraisals,
    counterfactuals,
    comparisons,
    predictions,
  ];
  const { positive, negative, partial: readingsPartial } = sumValence(valences);
  if (
    readingsPartial ||
    sessionsUnreadable > 0 ||
    allSources.some((source) => source.state !== 'read')
  )
    partial = true;

  const whole = (source: SourceRead<unknown>) => source.state === 'read';
  const outboxOk = stores.outbox.state !== 'unreadable';
  const questionsOk = stores.questions.state !== 'unreadable';
  const charterOk = charter.state !== 'unreadable';
  const coverage = expectationCoverage(scores);
  return {
    labels: listed ? labels : null,
    valence: { positive: listed ? positive : null, negative: listed ? negative : null, partial },
    named_a_goal: listed ? namedAGoal : null,
    attributed_by_sensor: listed && charterOk ? bySensor : null,
    cite_a_charter_line: listed && charterOk ? citesLine : null,
    goal_put_to_owner: listed && questionsOk ? goalPut : null,
    goal_confirmed: listed && questionsOk ? goalConfirmed : null,
    sessions_read: listed ? sessionsRead : null,
    sessions_unreadable: listed ? sessionsUnreadable : null,
    outbox_read: whole(stores.outbox) && whole(stores.ownerOutcomes),
    questions_read: whole(stores.questions),
    frontdoor_read: whole(stores.requests),
    learning_read: whole(stores.reflections),
    charter_read: whole(charter),
    closures_read: whole(stores.closures),
    workflows_read: whole(stores.workflows),
    owner_acts: ownerActs,
    reasoned_rejections: listed && outboxOk ? reasoned : null,
    unattributed_rejections: listed && outboxOk ? unattributed : null,
    curation: curationSection(
      { rule: rules, reflection: reflectionVerdicts, candidate: candidates },
      population.since,
    ),
    graph_fact_rejections: null,
    tests_hidden: listed ? population.testsHidden : null,
    experiments_hidden: listed ? population.experimentsHidden : null,
    probe: options.probe ?? null,
    comparisons: comparisonsSection(comparisons),
    appraiser: null,
    predictions: predictionsSection(predictions, stores.outbox, stores.ownerOutcomes),
    expectations:
      listed && appraisals.state !== 'unreadable' ? { read: whole(appraisals), ...coverage } : null,
    successes: {
      standing: successes.standing,
      by_kind: successes.by_kind,
      withdrawn: successes.withdrawn,
      unknown: successes.unknown,
      hidden: successes.hidden,
      partial: successes.partial,
      unreadable: [...successes.unreadable],
      exemplars:
        exemplars === null
          ? null
          : { total: exemplars.length, by_tool: byTool, by_taint: byTaint, served: false },
    },
    text_appraisals: textAppraisalsSection(appraisals, counterfactuals),
  };
}
