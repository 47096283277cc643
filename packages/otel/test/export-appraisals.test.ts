// End to end: a real home written through @mecha/stores' recorder, exported over OTLP/HTTP
// (protobuf and JSON) by the OpenTelemetry exporters into a receiver this test starts on
// 127.0.0.1, decoded there with the official OTLP definitions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leftOrThrow, rightOrThrow } from '@mecha/errors';
import { createSessionRecorder, homePorts, openHome } from '@mecha/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mechaNames } from '../src/attribute-names.js';
import { exportAppraisals } from '../src/index.js';
import { spanIdFor, traceIdFor } from '../src/span-ids.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './otlp-receiver.js';

let folder: string;
let receiver: OtlpReceiver;
const now = new Date('2026-12-01T12:00:00Z');
let looping: string;
let compacted: string;

async function recordHome(path: string): Promise<void> {
  let tick = Date.parse('2026-11-30T09:00:00Z');
  let ids = 0;
  const home = openHome(path, {
    clock: () => {
      tick += 1000;
      return new Date(tick);
    },
    newId: (prefix) => {
      ids += 1;
      return `${prefix}-${ids.toString(16).padStart(6, '0')}`;
    },
  });
  // A run that reads the same bytes three times (a boredom notice, −0.5) and is stopped by a person.
  const first = createSessionRecorder(home, { sessionId: '20261130T090000-aaaa0001' });
  looping = first.sessionId;
  const run = rightOrThrow(
    await first.startRun({ surface: 'cli', goal: { kind: 'task', id: 'task-1' } }),
  );
  rightOrThrow(
    await run.message({ turn: 0, role: 'owner', taint: 'clean', text: 'Send the totals.' }),
  );
  for (let turn = 1; turn <= 3; turn += 1) {
    const { callId } = rightOrThrow(
      await run.toolCall({ turn, tool: 'fs_read', target: 'totals.csv' }),
    );
    rightOrThrow(
      await run.toolResult({
        turn,
        callId,
        status: 'ok',
        taint: 'clean',
        resultDigest: 'sha256:1f',
      }),
    );
  }
  rightOrThrow(await run.intervention({ turn: 4, kind: 'stop' }));
  rightOrThrow(await run.end({ stopCause: 'stopped', turns: 4 }));
  const second = rightOrThrow(await first.startRun({ surface: 'cli', resumed: true }));
  rightOrThrow(await second.end({ stopCause: 'completed', turns: 0 }));
  // A compacted run: its valence is partial.
  const other = createSessionRecorder(home, { sessionId: '20261130T100000-bbbb0002' });
  compacted = other.sessionId;
  const third = rightOrThrow(await other.startRun({ surface: 'web' }));
  rightOrThrow(await third.compaction({ turn: 1 }));
  rightOrThrow(await third.end({ stopCause: 'completed', turns: 2 }));
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'mecha-otel-'));
  await recordHome(folder);
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  await receiver.close();
  rmSync(folder, { recursive: true, force: true });
});

const byId = (spans: readonly ReceivedSpan[]) =>
  new Map(spans.map((span) => [`${span.traceId}/${span.spanId}`, span]));

describe.each(['http/protobuf', 'http/json'] as const)('exportAppraisals over %s', (protocol) => {
  it('sends one span per session and one per run, with the appraisal kept apart', async () => {
    receiver.requests.length = 0;
    const seen: [number, number][] = [];
    const outcome = await exportAppraisals(homePorts(openHome(folder)), {
      endpoint: receiver.url,
      protocol,
      now,
      progress: (sent, total) => seen.push([sent, total]),
    });
    expect(rightOrThrow(outcome)).toMatchObject({
      state: 'exported',
      sessions: 2,
      runs: 3,
      spans: 5,
      unreadable: 0,
    });
    expect(seen).toEqual([
      [0, 2],
      [2, 2],
    ]);
    expect(receiver.requests.map((request) => request.path)).toEqual(['/v1/traces']);
    expect(receiver.requests[0]?.contentType).toContain(
      protocol === 'http/json' ? 'application/json' : 'application/x-protobuf',
    );
    const spans = receiver.requests.flatMap((request) => request.spans);
    expect(spans).toHaveLength(5);
    for (const span of spans) {
      expect(span.resource['service.name']).toBe('mecha');
      expect(span.scope).toBe('@mecha/otel');
    }

    // The looping session: its span, the trace of its id, and its two runs under it.
    const sessionSpan = spans.find((span) => span.spanId === spanIdFor(looping));
    expect(sessionSpan).toBeDefined();
    expect(sessionSpan?.traceId).toBe(traceIdFor(looping));
    expect(sessionSpan?.parentSpanId).toBe('');
    expect(sessionSpan?.attributes).toMatchObject({
      'gen_ai.conversation.id': looping,
      [mechaNames.scope]: 'session',
      [mechaNames.state]: 'appraised',
      [mechaNames.partial]: false,
      'session.id': looping,
      'openinference.span.kind': 'CHAIN',
      'langfuse.trace.metadata.mecha_label': sessionSpan?.attributes[mechaNames.label],
      'langfuse.trace.metadata.mecha_valence_negative': String(
        sessionSpan?.attributes[mechaNames.negative],
      ),
    });
    const runSpans = spans.filter(
      (span) => span.traceId === traceIdFor(looping) && span.parentSpanId === spanIdFor(looping),
    );
    expect(runSpans.map((span) => span.name)).toEqual(['invoke_agent', 'invoke_agent']);
    const looped = runSpans.find((span) => span.attributes[mechaNames.stopCause] === 'stopped');
    expect(looped?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'openinference.span.kind': 'AGENT',
      'session.id': looping,
      [mechaNames.surface]: 'cli',
      [mechaNames.goal]: 'task task-1',
      [mechaNames.partial]: false,
    });
    // The boredom notice and the stop sign negatively; nothing here signs positively.
    const negative = looped?.attributes[mechaNames.negative] as number;
    expect(negative).toBeGreaterThan(0);
    expect(looped?.attributes[mechaNames.positive]).toBe(0);
    expect(looped?.attributes[mechaNames.cites]).toEqual(
      expect.arrayContaining(['counter boredom_notice']),
    );
    expect(String(looped?.attributes[mechaNames.label])).not.toBe('');

    // Three evaluations per appraisal: the label, and each side of the valence on its own.
    const evaluations =
      looped?.events.filter((event) => event.name === 'gen_ai.evaluation.result') ?? [];
    expect(
      evaluations.map((event) => [
        event.attributes['gen_ai.evaluation.name'],
        event.attributes['gen_ai.evaluation.score.value'] ??
          event.attributes['gen_ai.evaluation.score.label'],
      ]),
    ).toEqual([
      ['mecha.label', looped?.attributes[mechaNames.label]],
      ['mecha.valence.positive', 0],
      ['mecha.valence.negative', negative],
    ]);
    const signed = looped?.events.filter((event) => event.name === 'mecha.appraisal.signed') ?? [];
    expect(signed.length).toBe(looped?.attributes[mechaNames.errorCount]);
    expect(signed.every((event) => (event.attributes['mecha.signed.sign'] as number) < 0)).toBe(
      true,
    );

    // Never one netted score: the only numbers on a span are the two sides and the count.
    for (const span of spans) {
      const numeric = Object.entries(span.attributes)
        .filter(([, value]) => typeof value === 'number')
        .map(([key]) => key)
        .sort();
      expect(numeric).toEqual(
        span.attributes[mechaNames.state] === 'appraised'
          ? [mechaNames.errorCount, mechaNames.positive, mechaNames.negative].sort()
          : [],
      );
    }

    // The compacted run reads partial, and its evaluations say so.
    const partialRun = spans.find(
      (span) => span.traceId === traceIdFor(compacted) && span.parentSpanId !== '',
    );
    expect(partialRun?.attributes[mechaNames.partial]).toBe(true);
    expect(
      partialRun?.events
        .filter((event) => event.name === 'gen_ai.evaluation.result')
        .every((event) => event.attributes[mechaNames.partial] === true),
    ).toBe(true);
  });

  it('is idempotent: exporting again sends the very same spans', async () => {
    receiver.requests.length = 0;
    const ports = homePorts(openHome(folder));
    await exportAppraisals(ports, { endpoint: `${receiver.url}/v1/traces`, protocol, now });
    await exportAppraisals(ports, { endpoint: receiver.url, protocol, now, batchSessions: 1 });
    const [once, ...again] = receiver.requests.map((request) => request.spans);
    expect(again).toHaveLength(2);
    const first = byId(once ?? []);
    const second = byId(again.flat());
    expect([...second.keys()].sort()).toEqual([...first.keys()].sort());
    for (const [key, span] of first) expect(second.get(key)).toEqual(span);
  });
});

describe('exportAppraisals headers', () => {
  it('sends the headers given, and those of OTEL_EXPORTER_OTLP_HEADERS', async () => {
    receiver.requests.length = 0;
    const ports = homePorts(openHome(folder));
    await exportAppraisals(ports, {
      endpoint: receiver.url,
      now,
      headers: { Authorization: 'Basic given' },
    });
    process.env.OTEL_EXPORTER_OTLP_HEADERS = 'Authorization=Basic%20from-env';
    try {
      await exportAppraisals(ports, { endpoint: receiver.url, now });
    } finally {
      delete process.env.OTEL_EXPORTER_OTLP_HEADERS;
    }
    expect(receiver.requests.map((request) => request.authorization)).toEqual([
      'Basic given',
      'Basic from-env',
    ]);
  });
});

describe('exportAppraisals refusals', () => {
  it('says clearly when the endpoint refuses, and how far it got', async () => {
    receiver.answerWith(401, 'invalid credentials');
    try {
      const outcome = await exportAppraisals(homePorts(openHome(folder)), {
        endpoint: receiver.url,
        now,
        batchSessions: 1,
      });
      const refused = leftOrThrow(outcome);
      expect(refused.kind).toBe('call_failed');
      expect(refused.message).toContain('HTTP 401');
      expect(refused.message).toContain('invalid credentials');
      expect(refused.message).toContain('0 of 2 sessions were sent');
    } finally {
      receiver.answerWith(200);
    }
  });

  it('says so when nothing listens there', async () => {
    const gone = await startOtlpReceiver();
    await gone.close();
    const outcome = await exportAppraisals(homePorts(openHome(folder)), {
      endpoint: gone.url,
      now,
      timeoutMs: 200,
    });
    const refused = leftOrThrow(outcome);
    expect(refused.kind).toBe('call_failed');
    expect(refused.message).toMatch(/could not reach .*ECONNREFUSED/);
  });

  it('refuses an endpoint that is not an http(s) URL, sending nothing', async () => {
    for (const endpoint of ['localhost:4318', 'grpc://127.0.0.1:4317', '']) {
      const outcome = await exportAppraisals(homePorts(openHome(folder)), { endpoint, now });
      expect(leftOrThrow(outcome).kind).toBe('bad_request');
    }
  });

  it('leaves sessions outside the window out', async () => {
    receiver.requests.length = 0;
    const outcome = await exportAppraisals(homePorts(openHome(folder)), {
      endpoint: receiver.url,
      now: new Date('2026-12-30T00:00:00Z'),
      days: 7,
    });
    expect(rightOrThrow(outcome)).toMatchObject({ state: 'exported', sessions: 0, spans: 0 });
  });
});
