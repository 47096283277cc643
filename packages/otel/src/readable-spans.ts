import {
  type Attributes,
  type HrTime,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
} from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { AppraisalSpan, SpanAttributeValue } from './appraisal-spans.js';

/** The instrumentation scope the spans are reported under. */
export const instrumentationScope = { name: '@mecha/otel', version: '0.0.0' } as const;

function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

function attributes(values: Readonly<Record<string, SpanAttributeValue>>): Attributes {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      key,
      Array.isArray(value)
        ? [...(value as readonly string[])]
        : (value as string | number | boolean),
    ]),
  );
}

/**
 * The spans as the OpenTelemetry SDK's `ReadableSpan`, ready for any span exporter: ended, with
 * the derived ids and the record's own times, under the resource `service.name = mecha`.
 */
export function readableSpans(spans: readonly AppraisalSpan[]): ReadableSpan[] {
  const resource = resourceFromAttributes({ 'service.name': 'mecha' });
  return spans.map((span) => {
    const context = { traceId: span.traceId, spanId: span.spanId, traceFlags: TraceFlags.SAMPLED };
    return {
      name: span.name,
      kind: SpanKind.INTERNAL,
      spanContext: () => context,
      ...(span.parentSpanId === undefined
        ? {}
        : {
            parentSpanContext: {
              traceId: span.traceId,
              spanId: span.parentSpanId,
              traceFlags: TraceFlags.SAMPLED,
            },
          }),
      startTime: hrTime(span.startMs),
      endTime: hrTime(span.endMs),
      duration: hrTime(span.endMs - span.startMs),
      status: { code: SpanStatusCode.UNSET },
      attributes: attributes(span.attributes),
      links: [],
      events: span.events.map((event) => ({
        name: event.name,
        time: hrTime(event.timeMs),
        attributes: attributes(event.attributes),
      })),
      ended: true,
      resource,
      instrumentationScope,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
  });
}
