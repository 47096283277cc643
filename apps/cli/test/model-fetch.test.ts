import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tinyLlamaGgufBytes } from '@mecha/fixtures';
import { generateHome } from '@mecha/fixtures/home';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, mecha, type Run, tempDir } from './helpers.js';

// This machine has no network: a real HTTP server on 127.0.0.1 stands in for the model host, so
// the fetch is real. The command runs as a subprocess without waiting synchronously, so this
// process's server can answer it.
const gguf = Buffer.from(tinyLlamaGgufBytes({ seed: 11 }));
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (!(request.url ?? '').endsWith('.gguf')) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-length': String(gguf.length) });
    if (request.method === 'HEAD') response.end();
    else response.end(gguf);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function mechaAsync(args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A generated home whose `[model] path` is a URL of the local server. */
function homeWithModelUri(file: string): string {
  const home = join(tempDir(), 'home');
  generateHome({
    path: home,
    seed: 'model-fetch',
    sessions: 3,
    start: new Date('2026-08-01T00:00:00Z'),
    days: 3,
  });
  const config = readFileSync(join(home, 'config.toml'), 'utf8').replace(/\[model\][^[]*$/, '');
  writeFileSync(join(home, 'config.toml'), `${config}[model]\npath = "${base}/${file}"\n`);
  return home;
}

describe('a model URI fetched by a command that loads the model', () => {
  it('mecha appraiser run --json: a start and an end line on stderr (not a terminal), clean JSON on stdout', {
    timeout: 120_000,
  }, async () => {
    const home = homeWithModelUri('tiny.gguf');
    expect(mecha(['--home', home, 'appraiser', 'on']).code).toBe(0);
    const run = await mechaAsync(['--home', home, 'appraiser', 'run', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ modelCalls: 0 });
    const models = join(home, 'models');
    expect(run.stderr.split('\n')).toEqual([
      `mecha appraiser run: fetching the model ${base}/tiny.gguf (${(gguf.length / 1000).toFixed(0)} KB) into ${models}`,
      `mecha appraiser run: fetched the model (${(gguf.length / 1000).toFixed(0)} KB) into ${join(models, 'tiny.gguf')}`,
      '',
    ]);
    expect(run.stderr).not.toContain('\r');
    expect(readFileSync(join(models, 'tiny.gguf'))).toEqual(gguf);

    // Already fetched: nothing about a fetch.
    const again = await mechaAsync(['--home', home, 'appraiser', 'run', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    JSON.parse(again.stdout);
  });

  it('mecha distill --json: the fetch lines go to stderr and stdout stays one JSON document', {
    timeout: 120_000,
  }, async () => {
    const home = homeWithModelUri('distill.gguf');
    // No graph server is reachable here, so distill stops after the fetch with a JSON reason.
    const run = await mechaAsync(['--home', home, 'distill', '--json', '--server', 'nope']);
    expect(JSON.parse(run.stdout)).toMatchObject({ state: 'cannot_run', reason: 'no_server' });
    expect(run.stderr).toContain(`mecha distill: fetching the model ${base}/distill.gguf (`);
    expect(run.stderr).toContain(
      `mecha distill: fetched the model (${(gguf.length / 1000).toFixed(0)} KB) into ${join(home, 'models', 'distill.gguf')}\n`,
    );
    expect(run.stdout).not.toContain('fetch');
  });
});
