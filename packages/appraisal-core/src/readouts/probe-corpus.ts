import type { AppraisalPorts } from '../ports/appraisal-ports.js';
import type { ArmOutcome, Replayer } from '../ports/replayer.js';
import { indexSessionStores, readSessionStores } from '../ports/store-index.js';
import { signedEntries } from '../rules/contributions.js';
import { gradeProbe } from '../rules/grade-probe.js';
import { selectPopulation } from '../rules/population.js';
import type { PopulationOptions } from '../rules/population-options.js';
import {
  countUnprobeable,
  probeKey,
  probePoints,
  recordedResult,
  replayStart,
} from '../rules/probe-points.js';
import type { ProbeReadout } from '../schemas/corpus-appraisal.js';

/** Options of {@link probeCorpus}: the population, the pass's own ceiling and its workspace. */
export interface ProbeOptions extends PopulationOptions {
  /** The most replays this pass drives; points past it are counted `over_ceiling`. */
  readonly maxProbes: number;
  /** The directory each replay is jailed to (checked by the caller not to cover the home). */
  readonly workspace: string;
  readonly signal?: AbortSignal;
  /** Called after each replay is driven, with how many have been and the ceiling. */
  readonly progress?: (driven: number, ceiling: number) => void;
}

/**
 * The paid pass's results: the readout's `probe` field, and the findings by session (keyed by
 * intervention kind and turn) that fill `controllable` when handed to `appraiseCorpus`.
 */
export interface ProbeRun {
  readonly readout: ProbeReadout;
  readonly resolved: ReadonlyMap<string, ReadonlyMap<string, boolean>>;
}

async function drive(
  replayer: Replayer,
  request: Parameters<Replayer['replay']>[0],
): Promise<ArmOutcome> {
  try {
    return await replayer.replay(request);
  } catch (error) {
    // A replayer that throws spent its run and answered nothing: an inconclusive arm.
    return { state: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The counterfactual probe over a population, newest session first: each replayable steer or
 * denial is replayed from its recorded prefix with the intervention removed, under the system
 * prompt that covered it, and graded against what the recorded run did. A point with nothing
 * recorded to reach is skipped (it costs nothing); moments with no probe point are counted
 * unprobeable; replays stop at `maxProbes`. Nothing is written.
 */
export async function probeCorpus(
  ports: AppraisalPorts,
  replayer: Replayer,
  options: ProbeOptions,
): Promise<ProbeRun> {
  const [listing, stores] = await Promise.all([ports.sessions.list(), readSessionStores(ports)]);
  const members = selectPopulation(
    listing.state === 'unreadable' ? [] : listing.records,
    options,
  ).members;
  const index = indexSessionStores(stores);
  const readout = {
    driven: 0,
    mattered: 0,
    redundant: 0,
    inconclusive: 0,
    skipped: 0,
    unprobeable: 0,
    over_ceiling: 0,
  };
  const resolved = new Map<string, Map<string, boolean>>();
  for (const member of [...members].reverse()) {
    const transcript = await ports.sessions.transcript(member.sessionId);
    if (transcript.state === 'unreadable') continue;
    const events = transcript.records;
    const evidence = index.evidenceFor(member.sessionId, transcript);
    readout.unprobeable += countUnprobeable(signedEntries(evidence).entries);
    for (const point of probePoints(events)) {
      const recorded = recordedResult(events, point);
      if (recorded.state === 'skipped') {
        readout.skipped += 1;
        continue;
      }
      if (readout.driven >= options.maxProbes || options.signal?.aborted === true) {
        readout.over_ceiling += 1;
        continue;
      }
      const start = replayStart(events, point, 'covering');
      const arm = await drive(replayer, {
        sessionId: member.sessionId,
        runId: point.runId,
        turn: point.turn,
        kind: point.kind,
        purpose: 'probe',
        policy: { name: 'intervention_removed', prompt: 'covering' },
        prefix: start.prefix,
        ...(start.systemPrompt === undefined ? {} : { systemPrompt: start.systemPrompt }),
        workspace: options.workspace,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      readout.driven += 1;
      options.progress?.(readout.driven, options.maxProbes);
      const finding = gradeProbe(recorded, arm);
      readout[finding] += 1;
      if (finding === 'inconclusive') continue;
      const own = resolved.get(member.sessionId) ?? new Map<string, boolean>();
      own.set(probeKey(point.kind, point.turn), finding === 'mattered');
      resolved.set(member.sessionId, own);
    }
  }
  return { readout, resolved };
}
