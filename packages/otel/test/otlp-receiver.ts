// A test OTLP/HTTP receiver on 127.0.0.1: it takes trace exports as a collector would and
// decodes them with the official OTLP definitions — protobuf through the protobufjs classes the
// OpenTelemetry project generated from opentelemetry-proto (shipped in
// @opentelemetry/otlp-transformer 0.57, installed here as `otlp-proto-decoder`), JSON as the
// OTLP/JSON encoding defines it (hex ids, lowerCamelCase fields). No collector binary exists
// here (not on Debian, not on npm), so the test starts this one.
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

const require = createRequire(import.meta.url);
interface AnyValueData {
  readonly stringValue?: string;
  readonly boolValue?: boolean;
  readonly intValue?: string | number;
  readonly doubleValue?: number;
  readonly arrayValue?: { readonly values?: readonly AnyValueData[] };
}
type KeyValueData = { readonly key: string; readonly value?: AnyValueData };
interface SpanData {
  readonly traceId: Uint8Array | string;
  readonly spanId: Uint8Array | string;
  readonly parentSpanId?: Uint8Array | string;
  readonly name: string;
  readonly startTimeUnixNano: string | number;
  readonly endTimeUnixNano: string | number;
  readonly attributes?: readonly KeyValueData[];
  readonly events?: readonly {
    readonly name: string;
    readonly attributes?: readonly KeyValueData[];
  }[];
}
/** An ExportTraceServiceRequest as a plain object (protobufjs's toObject, or OTLP/JSON). */
interface TracesData {
  readonly resourceSpans?: readonly {
    readonly resource?: { readonly attributes?: readonly KeyValueData[] };
    readonly scopeSpans?: readonly {
      readonly scope?: { readonly name?: string };
      readonly spans?: readonly SpanData[];
    }[];
  }[];
}
interface GeneratedRequest {
  decode(body: Uint8Array): unknown;
  toObject(message: unknown, options: object): TracesData;
}
// The protobufjs module generated from opentelemetry-proto: CommonJS, typed here by its use.
const root = require('otlp-proto-decoder/build/src/generated/root.js') as {
  opentelemetry: {
    proto: { collector: { trace: { v1: { ExportTraceServiceRequest: GeneratedRequest } } } };
  };
};
const ExportTraceServiceRequest =
  root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export type Value = string | number | boolean | Value[];

/** One span as it arrived, in one shape whichever encoding carried it. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  readonly attributes: Record<string, Value>;
  readonly events: { readonly name: string; readonly attributes: Record<string, Value> }[];
  readonly resource: Record<string, Value>;
  readonly scope: string;
}

export interface ReceivedRequest {
  readonly path: string;
  readonly authorization: string;
  readonly contentType: string;
  readonly spans: ReceivedSpan[];
}
function anyValue(value: AnyValueData | undefined): Value {
  if (value === undefined || value === null) return '';
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return Number(value.doubleValue);
  if (value.arrayValue !== undefined)
    return (value.arrayValue.values ?? []).map((item) => anyValue(item));
  throw new Error(`an attribute value of no known OTLP kind: ${JSON.stringify(value)}`);
}
function keyValues(list: readonly KeyValueData[] | undefined): Record<string, Value> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, anyValue(entry.value)]));
}

const hex = (bytes: Uint8Array | string | undefined): string =>
  bytes === undefined ? '' : typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('hex');
function spansOf(request: TracesData): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) =>
    (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        traceId: hex(span.traceId),
        spanId: hex(span.spanId),
        parentSpanId: hex(span.parentSpanId),
        name: span.name,
        startTimeUnixNano: String(span.startTimeUnixNano),
        endTimeUnixNano: String(span.endTimeUnixNano),
        attributes: keyValues(span.attributes),
        events: (span.events ?? []).map((event) => ({
          name: event.name,
          attributes: keyValues(event.attributes),
        })),
        resource: keyValues(resourceSpans.resource?.attributes),
        scope: scopeSpans.scope?.name ?? '',
      })),
    ),
  );
}

/** Decodes one request body by its content type, or throws naming what was wrong. */
export function decodeTraces(contentType: string, body: Buffer): ReceivedSpan[] {
  if (contentType.startsWith('application/x-protobuf')) {
    const message = ExportTraceServiceRequest.decode(body);
    return spansOf(ExportTraceServiceRequest.toObject(message, { longs: String, defaults: false }));
  }
  if (contentType.startsWith('application/json'))
    return spansOf(JSON.parse(body.toString('utf8')) as TracesData);
  throw new Error(`not an OTLP content type: ${contentType}`);
}

export interface OtlpReceiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Answer every later request with this HTTP status (200 by default). */
  answerWith(status: number, body?: string): void;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 at a free port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: ReceivedRequest[] = [];
  let status = 200;
  let answer = '{}';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (status !== 200) {
        response.writeHead(status, { 'content-type': 'text/plain' }).end(answer);
        return;
      }
      const contentType = request.headers['content-type'] ?? '';
      try {
        requests.push({
          path: request.url ?? '',
          authorization: request.headers.authorization ?? '',
          contentType,
          spans: decodeTraces(contentType, Buffer.concat(chunks)),
        });
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
        return;
      }
      const type = contentType.startsWith('application/json')
        ? 'application/json'
        : 'application/x-protobuf';
      response
        .writeHead(200, { 'content-type': type })
        .end(type === 'application/json' ? '{}' : Buffer.alloc(0));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answerWith: (code, body = '') => {
      status = code;
      answer = body;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
