import type { AppraisalPorts } from '../ports/appraisal-ports.js';
import { indexSessionStores, readSessionStores } from '../ports/store-index.js';
import { scanPopulation } from '../rules/population.js';
import type { PopulationOptions } from '../rules/population-options.js';
import { type ReplayCandidate, rankReplayCandidates } from '../rules/rank-replay-candidates.js';
import { appraisedEventTypes } from '../rules/read-transcript.js';
import type { SourceRead } from '../schemas/source-read.js';
import { readSession } from './read-session.js';

/** One session in replay order, as `sessions appraise --replay-candidates` shows it. */
export interface ReplayCandidateRow {
  readonly session_id: string;
  /** The harness's headroom for it; null when none was given (every session is then tied). */
  readonly headroom: number | null;
  readonly charter_line: string | null;
  readonly charter_rank: number | null;
}

/** The sessions of a window in the order replay selection would take them, and what was left out. */
export interface ReplayCandidatesReadout {
  readonly listed: SourceRead<unknown>['state'];
  /** Whether the charter could be read: unreadable ranks every session below every line. */
  readonly charter: SourceRead<unknown>['state'];
  readonly candidates: readonly ReplayCandidateRow[];
  /** Sessions whose transcript could not be read: no evidence, so not ranked. */
  readonly unreadable: readonly { readonly session_id: string; readonly reason: string }[];
  /** With a headroom map: sessions of the window it did not name (not candidates). */
  readonly without_headroom: number | null;
}

/**
 * Replay selection over a window of sessions: each readable session is a candidate with its
 * charter-attributed errors; with `headroom` (from the harness's own metric) only the sessions
 * it names are candidates, and without it every session is tied, so the order is the charter's.
 */
export async function replayCandidates(
  ports: AppraisalPorts,
  options: PopulationOptions,
  headroom?: ReadonlyMap<string, number>,
): Promise<ReplayCandidatesReadout> {
  const [stores, charter] = await Promise.all([readSessionStores(ports), ports.charter.lines()]);
  const index = indexSessionStores(stores);
  const candidates: ReplayCandidate[] = [];
  const unreadable: { session_id: string; reason: string }[] = [];
  let withoutHeadroom = 0;
  const { listing } = await scanPopulation(ports.sessions, {
    population: options,
    events: [...appraisedEventTypes],
    visit: (member, transcript) => {
      const given = headroom?.get(member.sessionId);
      if (headroom !== undefined && given === undefined) {
        withoutHeadroom += 1;
        return;
      }
      if (transcript.state === 'unreadable') {
        unreadable.push({ session_id: member.sessionId, reason: transcript.reason });
        return;
      }
      const reading = readSession(index.evidenceFor(member.sessionId, transcript), charter);
      candidates.push({ id: member.sessionId, headroom: given ?? 0, errors: reading.errors });
    },
  });
  const lineIds = charter.state === 'unreadable' ? [] : charter.records.map((line) => line.id);
  return {
    listed: listing.state,
    charter: charter.state,
    candidates: rankReplayCandidates(candidates, lineIds).map((ranked) => ({
      session_id: ranked.candidate.id,
      headroom: headroom === undefined ? null : ranked.candidate.headroom,
      charter_line: ranked.charterLine ?? null,
      charter_rank: ranked.charterRank ?? null,
    })),
    unreadable,
    without_headroom: headroom === undefined ? null : withoutHeadroom,
  };
}
