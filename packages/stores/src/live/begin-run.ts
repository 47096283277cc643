import type {
  ConditionsSnapshot,
  GoalRef,
  SessionKind,
  SituationBriefRecord,
  StopCause,
} from '@mecha/appraisal-core';
import {
  couldNotRead,
  finishConditions,
  planningGuidance,
  type RunContext,
  readValue,
  renderBrief,
  type StartedConditions,
  sampleConditions,
  type TurnReading,
} from '@mecha/homeostat';
import * as E from 'fp-ts/lib/Either.js';
import { configIssueText, type MechaConfig } from '../config.js';
import { contextOf, type MechaHome } from '../home-context.js';
import type { RunRecorder } from '../run-recorder.js';
import { createSessionRecorder, type Recorded, type SessionRecorder } from '../session-recorder.js';
import { type BriefConversation, briefConversation } from './brief-conversation.js';
import { homeSensors, type MachineSensors } from './home-sensors.js';
import { type HarnessSituation, situationFromHome } from './situation-from-home.js';

/**
 * How a run is being run: `live` (the default) samples and may deliver; `eval` and `replay`
 * never sample live conditions and never deliver a brief, whatever the config says.
 */
export type RunMode = 'live' | 'eval' | 'replay';

/**
 * A config key that bears on a live run, and what this version does with it: `honoured`, or
 * `refused` with the reason (a switch whose feature is not built here is said, never ignored).
 */
export interface SettingNotice {
  readonly key: string;
  readonly state: 'honoured' | 'refused';
  readonly message: string;
}

/** What `beginRun` needs: the goal and surface, and what only the harness knows. */
export interface BeginRunOptions {
  readonly surface: string;
  /** The goal the run names; none is recorded as `no_anchor`, not an empty chain. */
  readonly goal?: GoalRef;
  /** Machine sensors to lend the conditions (`machineSensors()` from `@mecha/homeostat/node`). */
  readonly sensors?: MachineSensors;
  readonly mode?: RunMode;
  /** `false` is `--no-situation-brief`: the brief is recorded but not delivered this run. */
  readonly situationBrief?: boolean;
  /** Seats, slots, voice and budget; whatever is left out reads as unknown in the brief. */
  readonly situation?: HarnessSituation;
  /** Go on with this session (a resumed run); a new session otherwise. */
  readonly session?: SessionRecorder;
  readonly personPresent?: boolean;
  readonly tools?: readonly string[];
  readonly workspace?: string;
  readonly configId?: string;
  readonly sessionKind?: SessionKind;
  readonly resumed?: boolean;
  readonly runId?: string;
}

/** A run begun: its recorders, what was recorded at its start, and the brief's delivery. */
export interface BeganRun {
  readonly session: SessionRecorder;
  readonly run: RunRecorder;
  /** The start-of-run snapshot recorded, or undefined in `eval` and `replay`. */
  readonly conditions: ConditionsSnapshot | undefined;
  /** The brief recorded on `run_start`, with whether it is delivered. */
  readonly brief: SituationBriefRecord;
  /** Each config key that bears on the run, honoured or refused with its reason. */
  readonly settings: readonly SettingNotice[];
  /** The conversation's brief tracker, already holding this brief when it was delivered. */
  readonly briefs: BriefConversation;
  /**
   * The run's first message: the owner's words, then the brief when it is delivered — never
   * the system prompt, so delivery does not change what a provider caches.
   */
  firstMessage(ownerText: string): string;
  /**
   * The brief for a later turn of a long conversation, rendered from the home now: the words
   * to send after the owner's message when they changed (or after a compaction), else undefined.
   * Always undefined when the brief is not delivered.
   */
  rebrief(options?: { readonly compacted?: boolean }): Promise<string | undefined>;
  /** Ends the run, recording the conditions only the end knows (flow and peaks) when sampled. */
  finish(end: {
    readonly stopCause: StopCause;
    readonly turns?: number;
    readonly turnReadings?: readonly TurnReading[];
  }): Recorded<void>;
}

function settingsOf(
  config: E.Either<readonly { key: string; message: string }[], MechaConfig>,
  mode: RunMode,
  override: boolean | undefined,
): {
  deliver: boolean;
  guide: boolean;
  settings: SettingNotice[];
  timeZone: string | undefined;
} {
  if (E.isLeft(config)) {
    const issues = config.left.map(configIssueText).join('; ');
    return {
      deliver: false,
      guide: false,
      timeZone: undefined,
      settings: [
        {
          key: 'config.toml',
          state: 'refused',
          message: `config.toml could not be used (${issues}); the brief is recorded and not delivered, and the owner's time zone is unknown`,
        },
      ],
    };
  }
  const agent = config.right.agent;
  const settings: SettingNotice[] = [];
  let deliver = agent.situation_brief;
  let why = agent.situation_brief ? 'delivered' : 'recorded only (agent.situation_brief is off)';
  if (mode !== 'live') {
    deliver = false;
    why = `recorded only: a ${mode} run never delivers one`;
  } else if (override === false) {
    deliver = false;
    why = 'recorded only: turned off for this run (--no-situation-brief)';
  }
  settings.push({
    key: 'agent.situation_brief',
    state: 'honoured',
    message: `situation brief ${why}`,
  });
  if (agent.step_escalation) {
    settings.push({
      key: 'agent.step_escalation',
      state: 'refused',
      message:
        'agent.step_escalation is on, but this version of mecha has no step escalation; the run goes on without one',
    });
  }
  if (agent.contrast_evidence) {
    settings.push({
      key: 'agent.contrast_evidence',
      state: 'honoured',
      message:
        'contrast evidence is shown to mecha reflect when it writes a lesson; no run prompt changes',
    });
  }
  for (const key of ['past_appraisals', 'success_examples'] as const) {
    if (agent[key]) {
      settings.push({
        key: `agent.${key}`,
        state: 'honoured',
        message: `goal_context (goalContext) returns ${key === 'past_appraisals' ? 'earlier clean appraisals' : 'planning examples'} when the model asks; nothing is added to the prompt`,
      });
    }
  }
  const guide = agent.planning_guidance && mode === 'live';
  if (agent.planning_guidance) {
    settings.push({
      key: 'agent.planning_guidance',
      state: 'honoured',
      message: guide
        ? 'planning guidance is delivered after the brief when a charter-weighed commitment is past its patience or goal drift was recorded'
        : `planning guidance is recorded only: a ${mode} run never delivers it`,
    });
  }
  return { deliver, guide, settings, timeZone: agent.timezone };
}

/**
 * What the session's earlier runs say about its goal: the confirmed goal (the first a run of
 * it named) and whether goal drift was already recorded. A transcript that cannot be read
 * confirms nothing and records nothing.
 */
async function sessionGoal(
  home: MechaHome,
  sessionId: string,
): Promise<{ confirmed: GoalRef | undefined; driftRecorded: boolean }> {
  const transcript = await home.sessions.transcript(sessionId);
  if (transcript.state === 'unreadable') return { confirmed: undefined, driftRecorded: false };
  let confirmed: GoalRef | undefined;
  let driftRecorded = false;
  for (const event of transcript.records) {
    if (event.type === 'run_start' && confirmed === undefined) confirmed = event.goal;
    if (event.type === 'counter' && event.name === 'goal_drift' && event.value > 0) {
      driftRecorded = true;
    }
  }
  return { confirmed, driftRecorded };
}

/** A run that names a goal other than the session's confirmed one has drifted from it. */
function drifted(confirmed: GoalRef | undefined, goal: GoalRef | undefined): boolean {
  return (
    confirmed !== undefined &&
    goal !== undefined &&
    (confirmed.kind !== goal.kind || confirmed.id !== goal.id)
  );
}

/**
 * Begins a run the way the seed's live path does, in one call: reads the config, samples the
 * conditions from the home (and the machine sensors lent), assembles and renders the situation
 * brief from the home, decides whether it is delivered (`[agent] situation_brief`, the
 * per-run override, never in `eval` or `replay`), and records it all on `run_start`. A
 * delivered brief marks the run as having read private data (distill reads
 * `run_start.brief.delivered`). Nothing throws: a write that fails is a `Left`.
 */
export async function beginRun(home: MechaHome, options: BeginRunOptions): Recorded<BeganRun> {
  const context = contextOf(home);
  const now = () => context.clock().getTime();
  const mode = options.mode ?? 'live';
  const { deliver, guide, settings, timeZone } = settingsOf(
    home.readConfig(),
    mode,
    options.situationBrief,
  );
  const runContext: RunContext | undefined =
    mode === 'live'
      ? {
          sensors: homeSensors(home, {
            now,
            ...(options.sensors === undefined ? {} : { machine: options.sensors }),
          }),
        }
      : undefined;
  const started: StartedConditions | undefined =
    runContext === undefined ? undefined : await sampleConditions(runContext);
  const session = options.session ?? createSessionRecorder(home);
  const render = async (conditions: ConditionsSnapshot | undefined) =>
    renderBrief(
      await situationFromHome(home, {
        ...(options.goal === undefined ? {} : { goal: options.goal }),
        now: now(),
        conditions,
        timeZone:
          timeZone === undefined
            ? couldNotRead('config.toml could not be read')
            : readValue(timeZone),
        ...(options.situation === undefined ? {} : { situation: options.situation }),
        sessionId: session.sessionId,
      }),
    );
  const rendered = await render(started?.snapshot);
  // Goal drift is recorded on the resumed run that names another goal than the session's
  // confirmed one; it never asks for confirmation again, and only guidance may mention it.
  const history =
    options.session === undefined
      ? { confirmed: undefined, driftRecorded: false }
      : await sessionGoal(home, session.sessionId);
  // Measured only when the session confirmed a goal and this run names one; else not recorded.
  const measurable = history.confirmed !== undefined && options.goal !== undefined;
  const driftNow = drifted(history.confirmed, options.goal);
  const guidance =
    mode === 'live'
      ? planningGuidance({
          conditions: started?.snapshot,
          goalDrift: history.driftRecorded || driftNow,
        })
      : undefined;
  const brief: SituationBriefRecord = {
    ...rendered,
    delivered: deliver,
    ...(guidance === undefined
      ? {}
      : { guidance: { text: guidance.text, reasons: [...guidance.reasons], delivered: guide } }),
  };
  const written = await session.startRun({
    surface: options.surface,
    ...(options.goal === undefined ? {} : { goal: options.goal }),
    ...(options.personPresent === undefined ? {} : { personPresent: options.personPresent }),
    ...(options.tools === undefined ? {} : { tools: options.tools }),
    ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
    ...(options.configId === undefined ? {} : { configId: options.configId }),
    ...(options.sessionKind === undefined ? {} : { sessionKind: options.sessionKind }),
    ...(options.resumed === undefined ? {} : { resumed: options.resumed }),
    ...(options.runId === undefined ? {} : { runId: options.runId }),
    ...(started === undefined ? {} : { conditions: started.snapshot }),
    brief,
  });
  if (E.isLeft(written)) return written;
  const run = written.right;
  if (measurable) {
    const counted = await run.counter('goal_drift', driftNow ? 1 : 0);
    if (E.isLeft(counted)) {
      // The run goes on: a counter that could not be written is said, not fatal.
      settings.push({
        key: 'goal_drift',
        state: 'refused',
        message: `goal drift could not be recorded: ${counted.left.message}`,
      });
    }
  }
  const briefs = briefConversation(deliver ? brief.text : undefined);
  return E.right({
    session,
    run,
    conditions: started?.snapshot,
    brief,
    settings,
    briefs,
    firstMessage: (ownerText) =>
      [
        ownerText,
        ...(deliver ? [brief.text] : []),
        ...(brief.guidance?.delivered === true ? [brief.guidance.text] : []),
      ].join('\n\n'),
    rebrief: async (rebriefOptions = {}) => {
      if (!deliver || runContext === undefined) return undefined;
      // What waits on the owner is read again for the words; nothing new is recorded.
      const fresh = await sampleConditions(runContext);
      return briefs.offer((await render(fresh?.snapshot)).text, rebriefOptions);
    },
    finish: async (end) => {
      const conditions =
        runContext === undefined
          ? undefined
          : await finishConditions(runContext, started, end.turnReadings ?? []);
      return run.end({
        stopCause: end.stopCause,
        ...(end.turns === undefined ? {} : { turns: end.turns }),
        ...(conditions === undefined ? {} : { conditions }),
      });
    },
  });
}
