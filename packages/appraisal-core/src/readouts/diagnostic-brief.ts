import type { AppraisalPorts } from '../ports/appraisal-ports.js';
import type { ConditionsSnapshot } from '../schemas/conditions.js';
import type { TextAppraisalRecord } from '../schemas/learning.js';
import type { TranscriptEvent } from '../schemas/transcript.js';

/** What a harness's nightly diagnostician asks about: one candidate and its two session sets. */
export interface DiagnosticBriefRequest {
  /** The candidate change, in the harness's own name for it. */
  readonly candidate: string;
  /** The sessions the candidate may be selected from. */
  readonly heldIn: readonly string[];
  /** The held-out sessions that confirm it: nothing of theirs is ever shown. */
  readonly heldOut: readonly string[];
  /** `[agent] sensors_in_brief`: homeostat and anticipated-guilt summaries enter the brief. */
  readonly sensorsInBrief: boolean;
  /** `[agent] appraisals_in_brief`: clean text appraisals of held-in sessions enter it. */
  readonly appraisalsInBrief: boolean;
}

/** The sensor summaries over the held-in sessions' runs; a mean is null when no run read it. */
export interface DiagnosticSensors {
  readonly state: 'read' | 'partial';
  /** Runs that recorded conditions, and runs that recorded none (sensors off or not read). */
  readonly runsWithConditions: number;
  readonly runsWithoutConditions: number;
  /** Sessions whose transcript could not be read whole, by id. */
  readonly sessionsNotRead: readonly string[];
  readonly meanAnticipatedGuilt: number | null;
  readonly meanLoadAverage: number | null;
  readonly meanPeakContextPressure: number | null;
  /** Per sensored charter line: runs that began with it past its setpoint, of runs that read it. */
  readonly charterLines: readonly {
    readonly line: string;
    readonly pastSetpoint: number;
    readonly read: number;
  }[];
}

/** One clean text appraisal as the diagnostician sees it. */
export interface DiagnosticAppraisal {
  readonly sessionId: string;
  readonly at: string;
  readonly interpretation: string;
  readonly prediction?: string;
  readonly ownerWants?: string;
  readonly lessons: readonly string[];
}

/** The text appraisals part: the clean ones of held-in sessions, with what was left out. */
export interface DiagnosticAppraisals {
  readonly state: 'read' | 'partial';
  readonly appraisals: readonly DiagnosticAppraisal[];
  /** Held-in sessions whose appraisal read third-party content (never shown), by id. */
  readonly withheldTainted: readonly string[];
  /** Held-in sessions also named held-out: held-out wins, so nothing of theirs is shown. */
  readonly withheldHeldOut: readonly string[];
}

/** Either part: off by its switch, read, or not readable (with the reason). */
export type DiagnosticPart<T> =
  | T
  | { readonly state: 'off'; readonly switch: string }
  | { readonly state: 'unreadable'; readonly reason: string };

/** The diagnostic brief for one candidate. It shapes what is proposed, never what is accepted. */
export interface DiagnosticBrief {
  readonly candidate: string;
  readonly sensors: DiagnosticPart<DiagnosticSensors>;
  readonly appraisals: DiagnosticPart<DiagnosticAppraisals>;
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function startConditions(events: readonly TranscriptEvent[]): ConditionsSnapshot[] {
  const found: ConditionsSnapshot[] = [];
  for (const event of events) {
    if (event.type === 'run_start' && event.conditions !== undefined) found.push(event.conditions);
  }
  return found;
}

async function readSensors(
  ports: AppraisalPorts,
  sessions: readonly string[],
): Promise<DiagnosticSensors> {
  let withConditions = 0;
  let without = 0;
  const notRead: string[] = [];
  const guilt: number[] = [];
  const load: number[] = [];
  const pressure: number[] = [];
  const lines = new Map<string, { pastSetpoint: number; read: number }>();
  for (const sessionId of sessions) {
    const transcript = await ports.sessions.transcript(sessionId);
    if (transcript.state !== 'read') notRead.push(sessionId);
    if (transcript.state === 'unreadable') continue;
    const runs = transcript.records.filter((event) => event.type === 'run_start').length;
    const snapshots = startConditions(transcript.records);
    withConditions += snapshots.length;
    without += runs - snapshots.length;
    for (const snapshot of snapshots) {
      if (snapshot.anticipated_guilt !== undefined) guilt.push(snapshot.anticipated_guilt);
      if (snapshot.load_avg_1m !== undefined) load.push(snapshot.load_avg_1m);
      if (snapshot.peak_context_pressure !== undefined)
        pressure.push(snapshot.peak_context_pressure);
      for (const reading of snapshot.charter ?? []) {
        if (reading.state === 'partial' || reading.state === 'unread') continue;
        const line = lines.get(reading.line) ?? { pastSetpoint: 0, read: 0 };
        line.read += 1;
        if (reading.state === 'past_setpoint') line.pastSetpoint += 1;
        lines.set(reading.line, line);
      }
    }
  }
  return {
    state: notRead.length === 0 ? 'read' : 'partial',
    runsWithConditions: withConditions,
    runsWithoutConditions: without,
    sessionsNotRead: notRead,
    meanAnticipatedGuilt: mean(guilt),
    meanLoadAverage: mean(load),
    meanPeakContextPressure: mean(pressure),
    charterLines: [...lines.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([line, counts]) => ({ line, ...counts })),
  };
}

function shown(record: TextAppraisalRecord): DiagnosticAppraisal {
  return {
    sessionId: record.session_id,
    at: record.at,
    interpretation: record.interpretation,
    ...(record.prediction === undefined ? {} : { prediction: record.prediction }),
    ...(record.owner_wants === undefined ? {} : { ownerWants: record.owner_wants }),
    lessons: record.lessons ?? [],
  };
}

/**
 * The brief a harness's nightly diagnostician reads for one candidate: homeostat and
 * anticipated-guilt summaries over the held-in sessions' runs (when `sensorsInBrief`), and the
 * clean text appraisals of the held-in sessions, newest per session (when
 * `appraisalsInBrief`). Nothing of a held-out session is ever read into it, not even when the
 * caller names it in both sets. Reads only; an unreadable store is said, never taken as empty.
 */
export async function diagnosticBrief(
  ports: AppraisalPorts,
  request: DiagnosticBriefRequest,
): Promise<DiagnosticBrief> {
  const heldOut = new Set(request.heldOut);
  const heldIn = [...new Set(request.heldIn)];
  const allowed = heldIn.filter((id) => !heldOut.has(id));
  const sensors: DiagnosticBrief['sensors'] = request.sensorsInBrief
    ? await readSensors(ports, allowed)
    : { state: 'off', switch: 'agent.sensors_in_brief' };
  if (!request.appraisalsInBrief) {
    return {
      candidate: request.candidate,
      sensors,
      appraisals: { state: 'off', switch: 'agent.appraisals_in_brief' },
    };
  }
  const records = await ports.learning.textAppraisals();
  if (records.state === 'unreadable') {
    return {
      candidate: request.candidate,
      sensors,
      appraisals: { state: 'unreadable', reason: records.reason },
    };
  }
  const allowedSet = new Set(allowed);
  const newest = new Map<string, TextAppraisalRecord>();
  for (const record of records.records) {
    if (!allowedSet.has(record.session_id)) continue;
    const before = newest.get(record.session_id);
    if (before === undefined || Date.parse(record.at) > Date.parse(before.at)) {
      newest.set(record.session_id, record);
    }
  }
  const tainted: string[] = [];
  const appraisals: DiagnosticAppraisal[] = [];
  for (const sessionId of allowed) {
    const record = newest.get(sessionId);
    if (record === undefined) continue;
    if (record.taint === 'clean') appraisals.push(shown(record));
    else tainted.push(sessionId);
  }
  return {
    candidate: request.candidate,
    sensors,
    appraisals: {
      state: records.state,
      appraisals,
      withheldTainted: tainted,
      withheldHeldOut: heldIn.filter((id) => heldOut.has(id)),
    },
  };
}
