import {
  type AppraisalPorts,
  indexSessionStores,
  readSession,
  readSessionStores,
} from '@mecha/appraisal-core';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { type AppraisalSpan, appraisalSpans } from './appraisal-spans.js';
import { readableSpans } from './readable-spans.js';

/** The OTLP/HTTP encodings: protobuf (the OTLP default) or JSON. */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** What to export and where. */
export interface ExportAppraisalsOptions {
  /**
   * The collector or backend: a base URL (`http://localhost:4318`, to which `/v1/traces` is
   * added) or the full traces URL (ending in `/v1/traces`), taken as it is.
   */
  readonly endpoint: string;
  readonly protocol?: OtlpProtocol;
  /** The moment of the export; the window is taken back from it. Nothing reads the clock. */
  readonly now: Date;
  /** Only sessions begun within this many days before `now`; all when absent. */
  readonly days?: number;
  /** Development (`test`) sessions too. */
  readonly includeTests?: boolean;
  /** Extra HTTP headers (an `Authorization` for Langfuse, say); `OTEL_EXPORTER_OTLP_HEADERS` is read too. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Sessions per request (50 unless said). */
  readonly batchSessions?: number;
  /** Milliseconds each request may take, retries included (10,000 unless said). */
  readonly timeoutMs?: number;
  /** How far the export has got: sessions sent so far, of how many. */
  readonly progress?: (sent: number, total: number) => void;
}

/** An export that happened: counts ready to render. */
export interface ExportedAppraisals {
  readonly state: 'exported';
  /** The traces URL the spans went to. */
  readonly url: string;
  readonly protocol: OtlpProtocol;
  readonly sessions: number;
  readonly runs: number;
  readonly spans: number;
  /** Sessions whose transcript could not be read: exported as `unreadable`, with no valence. */
  readonly unreadable: number;
  readonly line: string;
}

/**
 * Why an export did not happen. `bad_request`: the endpoint is not an http(s) URL.
 * `unreadable`: the session store could not be listed. `call_failed`: the endpoint answered
 * with an error, or could not be reached; `sent` sessions went before it (an export again sends
 * the same ids).
 */
export interface ExportRefusal extends Refusal<'bad_request' | 'unreadable' | 'call_failed'> {
  readonly sent?: number;
}

/** What came of an export: the counts, or why it did not happen. */
export type ExportAppraisalsOutcome = Either<ExportRefusal, ExportedAppraisals>;

/** The traces URL for an endpoint, or why it is not one. */
export function tracesUrl(endpoint: string): Either<Refusal<'bad_request'>, string> {
  let parsed: URL;
  try {
    parsed = new URL(endpoint);
  } catch {
    return left(
      refusal('bad_request', `--endpoint takes an http(s) URL, not ${JSON.stringify(endpoint)}`),
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return left(
      refusal(
        'bad_request',
        `--endpoint takes an http(s) URL (OTLP over HTTP), not a ${parsed.protocol.replace(':', '')} URL`,
      ),
    );
  }
  if (parsed.pathname.endsWith('/v1/traces')) return right(parsed.href);
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/v1/traces`;
  return right(parsed.href);
}

function refusalText(url: string, error: unknown): string {
  const detail = error as { code?: unknown; data?: unknown; message?: unknown; cause?: unknown };
  if (typeof detail.code === 'number') {
    const body =
      typeof detail.data === 'string' && detail.data.trim() !== ''
        ? `: ${detail.data.trim().slice(0, 200)}`
        : '';
    return `${url} refused the export with HTTP ${detail.code}${body}`;
  }
  const cause = detail.cause as { code?: unknown } | undefined;
  const code =
    typeof cause?.code === 'string'
      ? cause.code
      : typeof detail.code === 'string'
        ? detail.code
        : undefined;
  const message = typeof detail.message === 'string' ? detail.message : String(error);
  return `could not reach ${url}: ${code ?? message}`;
}

function send(
  exporter: JsonExporter | ProtobufExporter,
  spans: ReadableSpan[],
): Promise<Either<unknown, void>> {
  return new Promise((resolve) => {
    exporter.export(spans, (result) => {
      resolve(result.code === ExportResultCode.SUCCESS ? right(undefined) : left(result.error));
    });
  });
}

/**
 * Exports the appraisal of each session (and each of its runs) in a home as OpenTelemetry spans
 * over OTLP/HTTP: reads every store once, derives each session's reading and each run's live
 * readout, and sends them in batches. The ids are derived from the session and run ids, so
 * exporting again sends the same spans (a backend sees the same traces, not new ones). Nothing
 * in the home is written.
 */
export async function exportAppraisals(
  ports: AppraisalPorts,
  options: ExportAppraisalsOptions,
): Promise<ExportAppraisalsOutcome> {
  const target = tracesUrl(options.endpoint);
  if (target._tag === 'Left') return target;
  const url = target.right;
  const protocol = options.protocol ?? 'http/protobuf';
  const [stores, charter] = await Promise.all([readSessionStores(ports), ports.charter.lines()]);
  const index = indexSessionStores(stores);
  const sessions: AppraisalSpan[][] = [];
  let unreadable = 0;
  const listing = await ports.sessions.scan({
    population: {
      now: options.now,
      ...(options.days === undefined ? {} : { days: options.days }),
      includeTests: options.includeTests ?? false,
    },
    visit: (member, transcript) => {
      if (transcript.state === 'unreadable') unreadable += 1;
      const reading =
        transcript.state === 'unreadable'
          ? undefined
          : readSession(index.evidenceFor(member.sessionId, transcript), charter);
      sessions.push(
        appraisalSpans({
          listing: member,
          transcript,
          ...(reading === undefined ? {} : { reading }),
        }),
      );
    },
  });
  if (listing.state === 'unreadable') {
    return left(
      refusal(
        'unreadable',
        'the session store could not be listed; nothing was exported (run mecha doctor)',
      ),
    );
  }
  const config = {
    url,
    timeoutMillis: options.timeoutMs ?? 10_000,
    ...(options.headers === undefined ? {} : { headers: { ...options.headers } }),
  };
  const exporter =
    protocol === 'http/json' ? new JsonExporter(config) : new ProtobufExporter(config);
  const batch = Math.max(1, options.batchSessions ?? 50);
  let sent = 0;
  try {
    options.progress?.(0, sessions.length);
    for (let start = 0; start < sessions.length; start += batch) {
      const group = sessions.slice(start, start + batch);
      const result = await send(exporter, readableSpans(group.flat()));
      if (result._tag === 'Left') {
        return left({
          ...refusal(
            'call_failed',
            `${refusalText(url, result.left)}; ${sent} of ${sessions.length} sessions were sent before it (exporting again sends the same spans)`,
          ),
          sent,
        });
      }
      sent += group.length;
      options.progress?.(sent, sessions.length);
    }
  } finally {
    await exporter.shutdown();
  }
  const spans = sessions.reduce((sum, group) => sum + group.length, 0);
  const runs = spans - sessions.length;
  return right({
    state: 'exported',
    url,
    protocol,
    sessions: sessions.length,
    runs,
    spans,
    unreadable,
    line: `exported the appraisals of ${sessions.length} sessions (${runs} runs, ${spans} spans) to ${url} over ${protocol}${unreadable > 0 ? `; ${unreadable} transcripts could not be read and went as unreadable, with no valence` : ''}`,
  });
}
