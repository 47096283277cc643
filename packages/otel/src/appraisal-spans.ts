import {
  appraiseRun,
  citeText,
  type GoalError,
  goalText,
  type Label,
  type SessionListing,
  type SessionReading,
  type SourceRead,
  type TranscriptEvent,
} from '@mecha/appraisal-core';
import { backendNames, evaluationNames, genAiNames, mechaNames } from './attribute-names.js';
import { spanIdFor, traceIdFor } from './span-ids.js';

/** An attribute value as OTLP carries it. */
export type SpanAttributeValue = string | number | boolean | readonly string[];

/** A span event: a name, a time (ms since the epoch) and attributes. */
export interface AppraisalSpanEvent {
  readonly name: string;
  readonly timeMs: number;
  readonly attributes: Readonly<Record<string, SpanAttributeValue>>;
}

/**
 * One span of the export, as plain data: the ids are derived from mecha's ids (the same session
 * gives the same spans every time), times are the record's own.
 */
export interface AppraisalSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** The session's span, for a run's span; absent on the session's span. */
  readonly parentSpanId?: string;
  readonly name: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes: Readonly<Record<string, SpanAttributeValue>>;
  readonly events: readonly AppraisalSpanEvent[];
}

/** One session as the export reads it: its listing, its transcript and its derived reading. */
export interface SessionToExport {
  readonly listing: SessionListing;
  readonly transcript: SourceRead<TranscriptEvent>;
  /** The session's reading (`readSession`); absent when its transcript could not be read. */
  readonly reading?: SessionReading;
}

interface Appraised {
  readonly errors: readonly GoalError[];
  readonly label: Label;
  readonly valence: {
    readonly positive: number;
    readonly negative: number;
    readonly partial: boolean;
  };
}

/** The label, both sides of the valence and the cites: as attributes and as evaluation events. */
function appraisalParts(
  appraised: Appraised,
  timeMs: number,
): { attributes: Record<string, SpanAttributeValue>; events: AppraisalSpanEvent[] } {
  const { positive, negative, partial } = appraised.valence;
  const evaluation = (name: string, score: Record<string, SpanAttributeValue>) => ({
    name: genAiNames.evaluationEvent,
    timeMs,
    attributes: { [genAiNames.evaluationName]: name, ...score, [mechaNames.partial]: partial },
  });
  return {
    attributes: {
      [mechaNames.state]: 'appraised',
      [mechaNames.label]: appraised.label,
      [mechaNames.positive]: positive,
      [mechaNames.negative]: negative,
      [mechaNames.partial]: partial,
      [mechaNames.errorCount]: appraised.errors.length,
      [mechaNames.cites]: appraised.errors.map((error) => citeText(error.cite)),
    },
    events: [
      evaluation(evaluationNames.label, { [genAiNames.evaluationScoreLabel]: appraised.label }),
      evaluation(evaluationNames.positive, { [genAiNames.evaluationScoreValue]: positive }),
      evaluation(evaluationNames.negative, { [genAiNames.evaluationScoreValue]: negative }),
      ...appraised.errors.map((error) => ({
        name: mechaNames.signedEvent,
        timeMs,
        attributes: {
          [mechaNames.sign]: error.sign,
          [mechaNames.channel]: error.channel,
          [mechaNames.agency]: error.agency,
          [mechaNames.cite]: citeText(error.cite),
          [mechaNames.visible]: error.visible,
        },
      })),
    ],
  };
}

/** The Langfuse trace's name, tags and metadata, from the session's reading (strings, as Langfuse compares them). */
function langfuseTrace(reading: SessionReading | undefined): Record<string, SpanAttributeValue> {
  if (reading === undefined) {
    return {
      [backendNames.langfuseTraceName]: 'mecha session',
      [backendNames.langfuseTraceTags]: ['mecha', 'unreadable'],
    };
  }
  return {
    [backendNames.langfuseTraceName]: 'mecha session',
    [backendNames.langfuseTraceTags]: ['mecha', reading.label],
    [backendNames.langfuseLabel]: reading.label,
    [backendNames.langfusePositive]: String(reading.valence.positive),
    [backendNames.langfuseNegative]: String(reading.valence.negative),
    [backendNames.langfusePartial]: String(reading.valence.partial),
  };
}

function timeOf(at: string, fallback: number): number {
  const parsed = Date.parse(at);
  return Number.isFinite(parsed) ? parsed : fallback;
}

/** The events of each run, in the order the runs first appear. */
function runsOf(events: readonly TranscriptEvent[]): Map<string, TranscriptEvent[]> {
  const runs = new Map<string, TranscriptEvent[]>();
  for (const event of events) {
    const list = runs.get(event.run_id) ?? [];
    list.push(event);
    runs.set(event.run_id, list);
  }
  return runs;
}

/**
 * The spans of one session's appraisal: one span for the session (its reading: label, valence
 * sides, partial, cites) and, under it, one `invoke_agent` span per run with that run's own
 * live readout. Each appraisal is three `gen_ai.evaluation.result` events (the label, the
 * positive side, the negative side) and one event per signed entry; no netted score anywhere.
 * A transcript that could not be read gives a session span in state `unreadable`, with no
 * valence (absent is not zero). Pure: the same session gives the same spans.
 */
export function appraisalSpans(session: SessionToExport): AppraisalSpan[] {
  const { sessionId } = session.listing;
  const traceId = traceIdFor(sessionId);
  const sessionSpanId = spanIdFor(sessionId);
  const startedAt = Date.parse(session.listing.startedAt);
  const events = session.transcript.state === 'unreadable' ? [] : session.transcript.records;
  const times = events.map((event) => timeOf(event.at, startedAt));
  const sessionStart = Number.isFinite(startedAt) ? startedAt : Math.min(...times, 0);
  const sessionEnd = Math.max(sessionStart, ...times);
  const common = {
    [genAiNames.conversationId]: sessionId,
    [mechaNames.sessionId]: sessionId,
    [backendNames.sessionId]: sessionId,
    ...(session.listing.kind === undefined
      ? {}
      : { [mechaNames.sessionKind]: session.listing.kind }),
  };
  const sessionParts =
    session.reading === undefined || session.transcript.state === 'unreadable'
      ? { attributes: { [mechaNames.state]: 'unreadable' }, events: [] }
      : appraisalParts(session.reading, sessionEnd);
  const spans: AppraisalSpan[] = [
    {
      traceId,
      spanId: sessionSpanId,
      name: 'mecha.session',
      startMs: sessionStart,
      endMs: sessionEnd,
      attributes: {
        ...common,
        [mechaNames.scope]: 'session',
        [backendNames.openInferenceKind]: 'CHAIN',
        ...langfuseTrace(session.reading),
        ...sessionParts.attributes,
      },
      events: sessionParts.events,
    },
  ];
  for (const [runId, runEvents] of runsOf(events)) {
    const runTimes = runEvents.map((event) => timeOf(event.at, sessionStart));
    const start = Math.min(...runTimes);
    const end = Math.max(...runTimes);
    const head = runEvents.find((event) => event.type === 'run_start');
    const tail = runEvents.findLast((event) => event.type === 'run_end');
    const parts = appraisalParts(appraiseRun(runEvents), end);
    spans.push({
      traceId,
      spanId: spanIdFor(sessionId, runId),
      parentSpanId: sessionSpanId,
      name: 'invoke_agent',
      startMs: start,
      endMs: end,
      attributes: {
        ...common,
        [genAiNames.operationName]: 'invoke_agent',
        [backendNames.openInferenceKind]: 'AGENT',
        [mechaNames.scope]: 'run',
        [mechaNames.runId]: runId,
        ...(head?.type === 'run_start'
          ? { [mechaNames.surface]: head.surface, [mechaNames.goal]: goalText(head.goal) }
          : {}),
        ...(tail?.type === 'run_end' ? { [mechaNames.stopCause]: tail.stop_cause } : {}),
        ...parts.attributes,
      },
      events: parts.events,
    });
  }
  return spans;
}
