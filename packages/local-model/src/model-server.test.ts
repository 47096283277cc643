import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDeviceScheduler } from './device-scheduler.js';
import { localModelLoads } from './local-model.js';
import { connectModelServer } from './model-client.js';
import { modelEndpointPath, readModelEndpoint } from './model-endpoint.js';
import { serveModel } from './model-server.js';
import { createScriptedModel } from './scripted-model.js';

let root: string;
let gguf: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mecha-model-server-'));
  gguf = join(root, 'tiny.gguf');
  await writeTinyLlamaGguf({ path: gguf, seed: 5, contextLength: 2048 });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

let count = 0;
const freshDir = () => {
  count += 1;
  return join(root, `device-${count}`);
};

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A raw POST with the endpoint's token: its lines as they come. */
function rawPost(url: string, token: string | undefined, path: string, payload: unknown) {
  const lines: Record<string, unknown>[] = [];
  const done = new Promise<number>((resolve, reject) => {
    const call = request(`${url}${path}`, {
      method: 'POST',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    call.once('error', reject);
    call.once('response', (response) => {
      let buffered = '';
      response.on('data', (chunk) => {
        buffered += chunk;
        const parts = buffered.split('\n');
        buffered = parts.pop() ?? '';
        for (const part of parts) lines.push(JSON.parse(part));
      });
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    call.end(JSON.stringify(payload));
  });
  return { lines, done };
}

/** A scripted model with embeddings (semantics only: the real model is tested below). */
function scripted(reply: string, msPerToken = 0) {
  const model = createScriptedModel(() => reply, { msPerToken });
  return Object.assign(model, {
    embed: async (texts: readonly string[]) => texts.map((text) => [text.length, 1]),
  });
}

describe('serveModel with a scripted model (the protocol; semantics only)', () => {
  it('answers completions, streams progress, embeds, and requires the token', async () => {
    const directory = freshDir();
    const model = scripted('yes');
    const scheduler = createDeviceScheduler(model);
    const served = await serveModel({ scheduler, model, modelPath: root, directory });
    if (served._tag === 'Left') throw new Error(served.left.message);
    const client = await connectModelServer({ directory, home: '/homes/a' });
    if (client._tag === 'Left') throw new Error(client.left.message);
    expect(client.right.endpoint.pid).toBe(process.pid);
    const progress: number[] = [];
    const pieces: string[] = [];
    const result = await client.right.complete(
      {
        prompt: 'ask',
        grammar: { gbnf: 'root ::= "yes" | "no"' },
        maxTokens: 8,
        onToken: (n) => progress.push(n),
        onText: (text) => pieces.push(text),
      },
      'foreground',
    );
    expect(result).toMatchObject({ text: 'yes', stopReason: 'grammar', preempted: false });
    expect(progress.length).toBeGreaterThan(0);
    expect(pieces.join('')).toBe('yes');
    expect(model.requests[0]?.grammar).toEqual({ gbnf: 'root ::= "yes" | "no"' });
    expect(await client.right.embed(['abc'], 'background')).toEqual([[3, 1]]);
    const denied = rawPost(served.right.endpoint.url, 'wrong', '/complete', {});
    expect(await denied.done).toBe(401);
    expect(model.requests).toHaveLength(1);
    expect(await client.right.health()).toMatchObject({
      requests: { complete: 1, embed: 1 },
      homes: { '/homes/a': 2 },
    });
    await served.right.close();
    expect(existsSync(modelEndpointPath(directory))).toBe(false);
    await scheduler.dispose();
  });

  it('an abort message or a client that disconnects cancels the completion', async () => {
    const directory = freshDir();
    const model = scripted('x'.repeat(100_000), 1);
    const scheduler = createDeviceScheduler(model);
    const served = await serveModel({ scheduler, model, modelPath: root, directory });
    if (served._tag === 'Left') throw new Error(served.left.message);
    const { url, token } = served.right.endpoint;
    const long = { request: { prompt: 'go', maxTokens: 100_000 }, stream: { text: true } };
    const raw = rawPost(url, token, '/complete', long);
    // The text comes as it is generated, long before the result: abort once some has come.
    await until(() => raw.lines.some((line) => 'text' in line));
    expect(raw.lines.some((line) => 'tokens' in line)).toBe(false);
    const id = raw.lines[0]?.id;
    expect(await rawPost(url, token, '/abort', { id }).done).toBe(200);
    await raw.done;
    const last = raw.lines.at(-1) as {
      result: { stopReason: string; tokens: { completion: number } };
    };
    expect(last.result.stopReason).toBe('aborted');
    expect(last.result.tokens.completion).toBeLessThan(100_000);
    // Every piece streamed is part of the text the result holds, in order.
    const streamed = raw.lines.flatMap((line) => ('text' in line ? [line.text] : [])).join('');
    expect(streamed.length).toBeGreaterThan(0);
    expect((last.result as unknown as { text: string }).text.startsWith(streamed)).toBe(true);

    const client = await connectModelServer({ directory, home: 'h' });
    if (client._tag === 'Left') throw new Error(client.left.message);
    const controller = new AbortController();
    const cut = await client.right.complete(
      {
        prompt: 'go',
        maxTokens: 100_000,
        signal: controller.signal,
        onToken: (n) => {
          if (n >= 3) controller.abort();
        },
      },
      'foreground',
    );
    expect(cut.stopReason).toBe('aborted');
    // The server saw the disconnect and stopped generating (its count of aborted completions).
    await until(() => served.right.health().aborted === 2);
    expect(scheduler.running()).toBeUndefined();
    await served.right.close();
    await scheduler.dispose();
  });

  it('one server per folder: a second is refused naming the first; a stale file is replaced', async () => {
    const directory = freshDir();
    const model = scripted('ok');
    const scheduler = createDeviceScheduler(model);
    // A file left by a process that died (its pid is dead now).
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    const { mkdirSync } = await import('node:fs');
    mkdirSync(directory, { recursive: true });
    writeFileSync(
      modelEndpointPath(directory),
      `${dead}\n${JSON.stringify({ url: 'http://127.0.0.1:1', token: 't', modelPath: root })}\n`,
    );
    expect(readModelEndpoint(directory)).toBeUndefined();
    const stale = await connectModelServer({ directory, home: 'h' });
    expect(stale).toMatchObject({ _tag: 'Left', left: { kind: 'unreachable' } });
    const first = await serveModel({ scheduler, model, modelPath: root, directory });
    if (first._tag === 'Left') throw new Error(first.left.message);
    expect(readModelEndpoint(directory)?.pid).toBe(process.pid);
    // The token is readable by the file's owner only.
    expect(statSync(modelEndpointPath(directory)).mode & 0o777).toBe(0o600);
    const second = await serveModel({ scheduler, model, modelPath: root, directory });
    expect(second).toMatchObject({
      _tag: 'Left',
      left: {
        kind: 'refused',
        message: `process ${process.pid} already serves the model on this machine at ${first.right.endpoint.url}`,
      },
    });
    // A client that would load another GGUF does not use this server.
    const other = await connectModelServer({ directory, home: 'h', modelPath: gguf });
    expect(other).toMatchObject({
      _tag: 'Left',
      left: {
        kind: 'unreachable',
        message: `the model server of process ${process.pid} holds ${realpathSync(root)}, not ${realpathSync(gguf)}`,
      },
    });
    await first.right.close();
    await scheduler.dispose();
  });
});

function serverChild(directory: string) {
  const child = spawn(
    process.execPath,
    [
      fileURLToPath(new URL('./__fixtures__/model-server-child.mjs', import.meta.url)),
      directory,
      gguf,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  const lines: Record<string, unknown>[] = [];
  let buffered = '';
  child.stdout?.on('data', (chunk) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) lines.push(JSON.parse(part));
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, lines, exit };
}

describe('a real model server process on the tiny GGUF', () => {
  it('serves another process that loads no model; a second server is refused', async () => {
    const directory = freshDir();
    const server = serverChild(directory);
    await until(() => server.lines.length > 0);
    expect(server.lines[0]).toMatchObject({ serving: { pid: server.child.pid } });
    const client = await connectModelServer({ directory, home: '/homes/b', modelPath: gguf });
    if (client._tag === 'Left') throw new Error(client.left.message);
    const answer = await client.right.complete(
      { prompt: 'Answer:', grammar: { gbnf: 'root ::= "yes" | "no"' }, maxTokens: 4 },
      'foreground',
    );
    expect(['yes', 'no']).toContain(answer.text);
    expect(answer.stopReason).toBe('grammar');
    // The generated text streamed as it is produced, under a JSON schema's grammar: the pieces
    // are the result's text (the schema's closing newlines, a stop trigger, never arrive).
    const pieces: string[] = [];
    const streamed = await client.right.complete(
      {
        prompt: 'Name:',
        grammar: {
          jsonSchema: {
            type: 'object',
            properties: { name: { type: 'string', maxLength: 12 } },
            additionalProperties: false,
          },
        },
        maxTokens: 40,
        onText: (text) => pieces.push(text),
      },
      'foreground',
    );
    expect(streamed.stopReason).toBe('grammar');
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(streamed.text);
    expect(JSON.parse(streamed.text)).toHaveProperty('name');
    const vectors = await client.right.at('foreground').embed?.(['Bob fixed the build.']);
    expect(vectors?.[0]?.length).toBeGreaterThan(0);
    // Loaded once, in the server; never in this process.
    expect(localModelLoads()).toBe(0);
    expect(await client.right.health()).toMatchObject({
      pid: server.child.pid,
      loads: 1,
      requests: { complete: 2, embed: 1 },
    });
    const second = serverChild(directory);
    expect(await second.exit).toBe(0);
    expect(second.lines[0]).toMatchObject({
      refused: {
        kind: 'refused',
        message: `process ${server.child.pid} already serves the model on this machine at ${client.right.endpoint.url}`,
      },
    });
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    expect(server.lines.at(-1)).toMatchObject({ stopped: { loads: 1 } });
    expect(existsSync(modelEndpointPath(directory))).toBe(false);
  }, 300_000);
});
