// `mecha export otel` as a person runs it: the built command in a subprocess, exporting a
// generated home over OTLP/HTTP JSON into a small receiver this test starts on 127.0.0.1. The
// decoding of both OTLP encodings with the official definitions is @mecha/otel's own test;
// this one checks the command: its counts, its progress on stderr, idempotence and refusals.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { generateHome } from '@mecha/fixtures/home';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, type Run, tempDir } from './helpers.js';

interface Received {
  readonly path: string;
  readonly spanIds: string[];
}

let url: string;
let status = 200;
const received: Received[] = [];
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (status !== 200) {
      response.writeHead(status).end('quota exceeded');
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const spanIds: string[] = body.resourceSpans.flatMap(
      (resource: { scopeSpans: { spans: { spanId: string }[] }[] }) =>
        resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.spanId)),
    );
    received.push({ path: request.url ?? '', spanIds });
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

function run(args: readonly string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let home: string;
let total = 0;
beforeAll(async () => {
  home = join(tempDir('mecha-export-'), 'home');
  generateHome({ path: home, seed: 'otel', sessions: 60, tornRate: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const env = () => ({ MECHA_HOME: home, MECHA_NOW: '2026-10-01T00:00:00Z' });

describe('mecha export otel', () => {
  it('exports every session with its runs, with progress on stderr, the same spans twice', async () => {
    received.length = 0;
    const first = await run(
      ['export', 'otel', '--endpoint', url, '--protocol', 'http/json', '--json'],
      env(),
    );
    expect(first.code).toBe(0);
    const outcome = JSON.parse(first.stdout);
    expect(outcome).toMatchObject({ state: 'exported', protocol: 'http/json' });
    // The generated home's ordinary sessions; its development sessions stay out by default.
    total = outcome.sessions;
    expect(total).toBeGreaterThan(50);
    expect(total).toBeLessThanOrEqual(60);
    expect(outcome.url).toBe(`${url}/v1/traces`);
    expect(outcome.spans).toBe(outcome.sessions + outcome.runs);
    expect(first.stderr).toBe(
      [0, 50, total].map((sent) => `mecha export otel: ${sent}/${total} sessions sent\n`).join(''),
    );
    const once = received.flatMap((request) => request.spanIds);
    expect(once).toHaveLength(outcome.spans);
    expect(new Set(once).size).toBe(once.length);
    expect(received.every((request) => request.path === '/v1/traces')).toBe(true);

    received.length = 0;
    const again = await run(
      ['export', 'otel', '--endpoint', `${url}/v1/traces`, '--protocol', 'http/json'],
      env(),
    );
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^exported the appraisals of \d+ sessions \(\d+ runs, \d+ spans\) to http:\/\/127\.0\.0\.1:\d+\/v1\/traces over http\/json\n$/,
    );
    expect(received.flatMap((request) => request.spanIds).sort()).toEqual([...once].sort());
  });

  it('takes --days as the window', async () => {
    received.length = 0;
    const recent = await run(
      ['export', 'otel', '--endpoint', url, '--protocol', 'http/json', '--days', '30', '--json'],
      env(),
    );
    expect(recent.code).toBe(0);
    const sessions = JSON.parse(recent.stdout).sessions;
    expect(sessions).toBeGreaterThan(0);
    expect(sessions).toBeLessThan(total);
  });

  it('fails with exit 1 and one clear line when the endpoint refuses', async () => {
    status = 403;
    try {
      const refused = await run(
        ['export', 'otel', '--endpoint', url, '--protocol', 'http/json'],
        env(),
      );
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(
        `mecha export otel: ${url}/v1/traces refused the export with HTTP 403: quota exceeded; 0 of ${total} sessions were sent before it (exporting again sends the same spans)\n`,
      );
    } finally {
      status = 200;
    }
  });

  it('treats a missing endpoint, a bad URL or an unknown protocol as usage', async () => {
    const cases: [string[], string][] = [
      [[], '--endpoint URL is required'],
      [['--endpoint', 'localhost:4318'], 'not a localhost URL'],
      [['--endpoint', url, '--protocol', 'grpc'], '--protocol takes http/protobuf or http/json'],
      [['--endpoint', url, '--days', '0'], '--days takes a whole number'],
    ];
    for (const [args, message] of cases) {
      const result = await run(['export', 'otel', ...args], env());
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
    }
  });

  it('has help', async () => {
    const help = await run(['export', 'otel', '--help'], env());
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: mecha export otel --endpoint URL');
  });
});
