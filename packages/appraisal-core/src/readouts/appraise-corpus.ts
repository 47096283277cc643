import type { AppraisalPorts } from '../ports/appraisal-ports.js';
import type { SessionStores } from '../ports/session-stores.js';
import { indexSessionStores, readSessionStores, recordsOrNone } from '../ports/store-index.js';
import { runBoundaries, type TranscriptReader } from '../ports/transcript-cache.js';
import { scanPopulation } from '../rules/population.js';
import type { PopulationOptions } from '../rules/population-options.js';
import { appraisedEventTypes } from '../rules/read-transcript.js';
import { sumValence } from '../rules/valence.js';
import type { CorpusAppraisal, ProbeReadout } from '../schemas/corpus-appraisal.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { CorpusTally } from './corpus-tally.js';
import {
  comparisonsSection,
  curationSection,
  predictionsSection,
  textAppraisalsSection,
} from './store-sections.js';
import { collectSuccesses, type SuccessesReadout } from './successes/successes.js';

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

// Everything a session's appraisal consults is read first, so each transcript can be folded
// the moment the single pass over the session store reads it.
async function readCorpusSources(ports: AppraisalPorts) {
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
  return {
    stores,
    charter,
    rules,
    reflectionVerdicts,
    candidates,
    appraisals,
    counterfactuals,
    comparisons,
    predictions,
  };
}
type CorpusSources = Awaited<ReturnType<typeof readCorpusSources>>;

/**
 * The runs of the sessions the successes reader asks after (those of parked questions): only
 * their runs' starts and ends are kept, so no whole transcript outlives its batch. Sessions of
 * the population are kept as the pass reads them; others are read when asked for, once each,
 * cut down the same way.
 */
class QuestionRuns {
  private readonly questionSessions = new Set<string>();
  private readonly runsBySession = new Map<string, Promise<SourceRead<TranscriptEvent>>>();

  constructor(
    stores: SessionStores,
    private readonly ports: AppraisalPorts,
  ) {
    for (const record of recordsOrNone(stores.questions)) {
      if (record.type === 'parked') this.questionSessions.add(record.session_id);
    }
  }

  keep(sessionId: string, transcript: SourceRead<TranscriptEvent>): void {
    if (this.questionSessions.has(sessionId)) {
      this.runsBySession.set(sessionId, Promise.resolve(runBoundaries(transcript)));
    }
  }

  readonly read: TranscriptReader = (sessionId) => {
    let runs = this.runsBySession.get(sessionId);
    if (runs === undefined) {
      runs = this.ports.sessions.transcript(sessionId).then(runBoundaries);
      this.runsBySession.set(sessionId, runs);
    }
    return runs;
  };
}

function successesSection(successes: SuccessesReadout): CorpusAppraisal['successes'] {
  const exemplars = successes.exemplars;
  const byTool: Record<string, number> = {};
  const byTaint = { clean: 0, third_party: 0, unknown: 0 };
  for (const exemplar of exemplars ?? []) {
    byTool[exemplar.tool] = (byTool[exemplar.tool] ?? 0) + 1;
    byTaint[exemplar.taint] += 1;
  }
  return {
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
  };
}

const whole = (source: SourceRead<unknown>) => source.state === 'read';

function allSources(
  listing: SourceRead<unknown>,
  sources: CorpusSources,
): readonly SourceRead<unknown>[] {
  const { stores, ...rest } = sources;
  return [
    listing,
    ...Object.values(stores),
    rest.charter,
    rest.rules,
    rest.reflectionVerdicts,
    rest.candidates,
    rest.appraisals,
    rest.counterfactuals,
    rest.comparisons,
    rest.predictions,
  ];
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
  const sources = await readCorpusSources(ports);
  const { stores, charter, appraisals } = sources;
  const tally = new CorpusTally({
    index: indexSessionStores(stores),
    charter,
    appraisals,
    now: options.now,
    resolved: options.resolved,
  });
  const questionRuns = new QuestionRuns(stores, ports);
  const { listing, population } = await scanPopulation(ports.sessions, {
    population: options,
    events: [...appraisedEventTypes],
    visit: (member, read) => {
      questionRuns.keep(member.sessionId, read);
      tally.fold(member.sessionId, read);
    },
  });
  const listed = listing.state !== 'unreadable';
  tally.sessionsUnreadable += population.headUnreadable;

  const successes = await collectSuccesses(
    {
      listing,
      outbox: stores.outbox,
      closures: stores.closures,
      workflows: stores.workflows,
      questions: stores.questions,
    },
    questionRuns.read,
    { includeTests: options.includeTests === true || options.kind === 'test' },
  );

  const { positive, negative, partial: readingsPartial } = sumValence(tally.valences);
  const partial =
    readingsPartial ||
    tally.sessionsUnreadable > 0 ||
    allSources(listing, sources).some((source) => source.state !== 'read');
  const outboxOk = stores.outbox.state !== 'unreadable';
  const questionsOk = stores.questions.state !== 'unreadable';
  const charterOk = charter.state !== 'unreadable';
  return {
    labels: listed ? tally.labels : null,
    valence: { positive: listed ? positive : null, negative: listed ? negative : null, partial },
    named_a_goal: listed ? tally.namedAGoal : null,
    attributed_by_sensor: listed && charterOk ? tally.bySensor : null,
    cite_a_charter_line: listed && charterOk ? tally.citesLine : null,
    goal_put_to_owner: listed && questionsOk ? tally.goalPut : null,
    goal_confirmed: listed && questionsOk ? tally.goalConfirmed : null,
    sessions_read: listed ? tally.sessionsRead : null,
    sessions_unreadable: listed ? tally.sessionsUnreadable : null,
    outbox_read: whole(stores.outbox) && whole(stores.ownerOutcomes),
    questions_read: whole(stores.questions),
    frontdoor_read: whole(stores.requests),
    learning_read: whole(stores.reflections),
    charter_read: whole(charter),
    closures_read: whole(stores.closures),
    workflows_read: whole(stores.workflows),
    owner_acts: tally.ownerActs(stores, listed),
    reasoned_rejections: listed && outboxOk ? tally.reasoned : null,
    unattributed_rejections: listed && outboxOk ? tally.unattributed : null,
    curation: curationSection(
      {
        rule: sources.rules,
        reflection: sources.reflectionVerdicts,
        candidate: sources.candidates,
      },
      population.since,
    ),
    graph_fact_rejections: null,
    tests_hidden: listed ? population.testsHidden : null,
    experiments_hidden: listed ? population.experimentsHidden : null,
    probe: options.probe ?? null,
    comparisons: comparisonsSection(sources.comparisons),
    appraiser: null,
    predictions: predictionsSection(sources.predictions, stores.outbox, stores.ownerOutcomes),
    expectations:
      listed && appraisals.state !== 'unreadable'
        ? { read: whole(appraisals), ...tally.coverage() }
        : null,
    successes: successesSection(successes),
    text_appraisals: textAppraisalsSection(appraisals, sources.counterfactuals),
  };
}
