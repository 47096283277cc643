import type { AppraisalPorts } from '../ports/appraisal-ports.js';
import { scanPopulation } from '../rules/population.js';
import type { PopulationOptions } from '../rules/population-options.js';
import type { SituationBriefRecord } from '../schemas/conditions.js';
import { type StopCause, stopCauseSchema } from '../schemas/transcript.js';

/**
 * The run-level counters `sessions health` names, by the counter name a run records them
 * under: goal drift, plan steps that did nothing, plan steps reopened, and boredom notices.
 */
export const healthCounters = {
  goal_drift: 'goal_drift',
  null_steps: 'null_steps',
  reopened_steps: 'reopened_steps',
  boredom_fired: 'boredom_notice',
} as const;

/**
 * One counter across runs. A run that did not record the counter is not a run where it was
 * zero: `runs_recorded` says how many did, and the whole entry is `null` when none did.
 */
export interface CounterHealth {
  readonly runs_recorded: number;
  /** Runs where it was above zero. */
  readonly runs_fired: number;
  readonly total: number;
}

/** How a brief field was filled: `read`, `partial`, `unread`, or a state that is no failure. */
export type BriefFieldState = SituationBriefRecord['fields']['goal']['state'];

/** The brief fields, in the order the situation brief lists them. */
export const briefFields = [
  'goal',
  'attempts',
  'board',
  'commitments',
  'time',
  'seats',
  'runs',
  'slots',
  'voice',
  'budget',
] as const satisfies readonly (keyof SituationBriefRecord['fields'])[];

/**
 * How complete the recorded situation briefs are: per field, how many briefs filled it in each
 * state (only `unread` and `partial` are failures); and the runs that recorded no brief, by surface.
 */
export interface BriefHealth {
  readonly runs_with_brief: number;
  /** Briefs that were sent to the model (the rest were recorded only). */
  readonly delivered: number;
  readonly fields: Readonly<
    Record<(typeof briefFields)[number], Readonly<Record<BriefFieldState, number>>>
  >;
  readonly without_brief: Readonly<Record<string, number>>;
}

/** What `sessions health` reports: per-run counters over the sessions of the window. */
export interface HealthReadout {
  /** `null` below when the session store could not be listed. */
  readonly sessions_read: number | null;
  readonly sessions_unreadable: number | null;
  readonly tests_hidden: number | null;
  readonly experiments_hidden: number | null;
  /** Runs found in the transcripts read (a resumed run is its own run). */
  readonly runs: number | null;
  /** How the runs ended, as the harness recorded it; runs with no end recorded are apart. */
  readonly stop_causes: Readonly<Record<StopCause, number>> | null;
  readonly runs_without_end: number | null;
  readonly runs_compacted: number | null;
  readonly counters: Readonly<Record<keyof typeof healthCounters, CounterHealth | null>>;
  /** Every other counter the runs recorded, by name. */
  readonly other_counters: Readonly<Record<string, CounterHealth>>;
  /** The recorded situation briefs; `null` when the session store could not be listed. */
  readonly situation_brief: BriefHealth | null;
  /** Some transcript or the listing was not read whole: the counts may be short. */
  readonly partial: boolean;
  /** What the records cannot say: each named counter no run recorded, with the reason. */
  readonly unknown: readonly { readonly field: string; readonly reason: string }[];
}

interface RunTally {
  ended: StopCause | undefined;
  compacted: boolean;
  counters: Map<string, number>;
  surface: string | undefined;
  brief: SituationBriefRecord | undefined;
}

/**
 * Run-level health over the window: how runs stopped, how often they compacted, and each
 * counter summed per run (goal drift, null steps, reopened steps, boredom). It keeps to what
 * the transcripts hold and names what they do not.
 */
export async function health(
  ports: AppraisalPorts,
  options: PopulationOptions,
): Promise<HealthReadout> {
  const runs = new Map<string, RunTally>();
  let sessionsRead = 0;
  let sessionsUnreadable = 0;
  let partial = false;
  const { listing, population } = await scanPopulation(ports.sessions, {
    // Whole transcripts: a run is counted from any event that names it, even one whose start
    // line was lost.
    population: options,
    visit: (member, read) => {
      if (read.state === 'unreadable') {
        sessionsUnreadable += 1;
        partial = true;
        return;
      }
      if (read.state === 'partial') partial = true;
      sessionsRead += 1;
      for (const event of read.records) {
        const key = `${member.sessionId}\u0000${event.run_id}`;
        let run = runs.get(key);
        if (run === undefined) {
          run = {
            ended: undefined,
            compacted: false,
            counters: new Map(),
            surface: undefined,
            brief: undefined,
          };
          runs.set(key, run);
        }
        if (event.type === 'run_start') {
          run.surface = event.surface;
          run.brief = event.brief;
        } else if (event.type === 'run_end') run.ended = event.stop_cause;
        else if (event.type === 'compaction') run.compacted = true;
        else if (event.type === 'counter') {
          run.counters.set(event.name, (run.counters.get(event.name) ?? 0) + event.value);
        }
      }
    },
  });
  sessionsUnreadable += population.headUnreadable;
  if (listing.state !== 'read' || population.headUnreadable > 0) partial = true;

  const listed = listing.state !== 'unreadable';
  const stopCauses = Object.fromEntries(
    stopCauseSchema.options.map((cause) => [cause, 0]),
  ) as Record<StopCause, number>;
  let withoutEnd = 0;
  let compacted = 0;
  const perCounter = new Map<
    string,
    { runs_recorded: number; runs_fired: number; total: number }
  >();
  for (const run of runs.values()) {
    if (run.ended === undefined) withoutEnd += 1;
    else stopCauses[run.ended] += 1;
    if (run.compacted) compacted += 1;
    for (const [name, value] of run.counters) {
      const entry = perCounter.get(name) ?? { runs_recorded: 0, runs_fired: 0, total: 0 };
      entry.runs_recorded += 1;
      if (value > 0) entry.runs_fired += 1;
      entry.total += value;
      perCounter.set(name, entry);
    }
  }
  const states: readonly BriefFieldState[] = [
    'read',
    'partial',
    'unread',
    'no_anchor',
    'not_a_task',
    'not_local',
  ];
  const fields = Object.fromEntries(
    briefFields.map((field) => [field, Object.fromEntries(states.map((state) => [state, 0]))]),
  ) as Record<(typeof briefFields)[number], Record<BriefFieldState, number>>;
  const withoutBrief: Record<string, number> = {};
  let withBrief = 0;
  let delivered = 0;
  for (const run of runs.values()) {
    if (run.brief === undefined) {
      const surface = run.surface ?? 'unknown';
      withoutBrief[surface] = (withoutBrief[surface] ?? 0) + 1;
      continue;
    }
    withBrief += 1;
    if (run.brief.delivered === true) delivered += 1;
    for (const field of briefFields) fields[field][run.brief.fields[field].state] += 1;
  }
  const named = new Set<string>(Object.values(healthCounters));
  const counters = Object.fromEntries(
    Object.entries(healthCounters).map(([field, name]) => [field, perCounter.get(name) ?? null]),
  ) as Record<keyof typeof healthCounters, CounterHealth | null>;
  const otherCounters = Object.fromEntries(
    [...perCounter].filter(([name]) => !named.has(name)).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return {
    sessions_read: listed ? sessionsRead : null,
    sessions_unreadable: listed ? sessionsUnreadable : null,
    tests_hidden: listed ? population.testsHidden : null,
    experiments_hidden: listed ? population.experimentsHidden : null,
    runs: listed ? runs.size : null,
    stop_causes: listed ? stopCauses : null,
    runs_without_end: listed ? withoutEnd : null,
    runs_compacted: listed ? compacted : null,
    counters,
    other_counters: otherCounters,
    situation_brief: listed
      ? { runs_with_brief: withBrief, delivered, fields, without_brief: withoutBrief }
      : null,
    partial,
    unknown: Object.entries(counters)
      .filter(([, entry]) => entry === null)
      .map(([field]) => ({ field, reason: 'no run in the window recorded it' })),
  };
}
