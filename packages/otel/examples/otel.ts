// A home's appraisals exported as OpenTelemetry spans over OTLP/HTTP (JSON), as
// `mecha export otel` does: a harness records one run through @mecha/stores (it loops on one
// file and the owner stops it), then `exportAppraisals` sends every session's spans to an
// endpoint. So that it runs with no collector, the example starts a stand-in OTLP endpoint on
// 127.0.0.1 that keeps what it is sent; point `endpoint` at Langfuse, Phoenix or a collector
// instead. It uses $MECHA_HOME when set, a fresh temporary home otherwise, and prints the mecha
// attributes of the spans that arrived.
// Run it with `npx tsx examples/otel.ts` from packages/otel after `pnpm build`.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportAppraisals } from '@mecha/otel';
import { createSessionRecorder, homePorts, openHome, rightOrThrow } from '@mecha/stores';

const home = openHome(process.env.MECHA_HOME ?? mkdtempSync(join(tmpdir(), 'mecha-example-')));

// 1. A run recorded live: it reads the same file three times, and the owner stops it.
const session = createSessionRecorder(home);
const run = rightOrThrow(await session.startRun({ surface: 'cli' }));
rightOrThrow(
  await run.message({ turn: 0, role: 'owner', taint: 'clean', text: 'Send the totals.' }),
);
for (let turn = 1; turn <= 3; turn += 1) {
  const { callId } = rightOrThrow(
    await run.toolCall({ turn, tool: 'fs_read', target: 'totals.csv' }),
  );
  const result = { turn, callId, status: 'ok', taint: 'clean', resultDigest: 'sha256:1f' } as const;
  rightOrThrow(await run.toolResult(result));
}
rightOrThrow(await run.intervention({ turn: 4, kind: 'stop' }));
rightOrThrow(await run.end({ stopCause: 'stopped', turns: 4 }));

// 2. A stand-in OTLP/HTTP endpoint that keeps the JSON bodies it is sent.
type Attribute = { key: string; value: Record<string, unknown> };
type Span = { name: string; attributes?: Attribute[] };
type Body = { resourceSpans?: { scopeSpans?: { spans?: Span[] }[] }[] };
const bodies: Body[] = [];
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// 3. The export: every session of the home, as `mecha export otel --endpoint URL` does.
const outcome = await exportAppraisals(homePorts(home), {
  endpoint,
  protocol: 'http/json',
  now: new Date(),
});
server.close();

const spans = bodies.flatMap((body) =>
  (body.resourceSpans ?? []).flatMap((resource) =>
    (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []),
  ),
);
const mechaAttributes = (span: Span) =>
  Object.fromEntries(
    (span.attributes ?? [])
      .filter((attribute) => attribute.key.startsWith('mecha.'))
      .map((attribute) => [attribute.key, Object.values(attribute.value)[0]]),
  );
console.log(
  JSON.stringify(
    {
      home: home.path,
      session: session.sessionId,
      outcome: outcome._tag === 'Right' ? outcome.right.line : outcome.left.message,
      spans: spans.map((span) => ({ name: span.name, attributes: mechaAttributes(span) })),
    },
    null,
    2,
  ),
);
