import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tinyLlamaGgufBytes } from '@mecha/fixtures';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ModelFetchEvent, modelLocation, resolveModelPath } from './config.js';
import { createLocalModel } from './local-model.js';
import { ModelConfigError } from './model-config-error.js';

// This machine has no network: a real HTTP server on 127.0.0.1 stands in for the model host
// (and, through node-llama-cpp's endpoint option, for Hugging Face), so the fetch is real.
const gguf = tinyLlamaGgufBytes({ seed: 5 });
// A bigger file, sent in many writes. The server sends its first half, then holds the rest until
// the test has been told of some bytes, so a fetch is seen going on (never one jump to the end)
// without depending on how fast anything runs.
const big = new Uint8Array(1024 * 1024).map((_, index) => (index * 31 + 7) % 251);
let releaseRest: () => void = () => {};
let restReleased: Promise<void> = Promise.resolve();
const requests: string[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (path.endsWith('/big.gguf')) {
      response.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(big.length),
      });
      if (request.method === 'HEAD') {
        response.end();
        return;
      }
      const chunk = 16 * 1024;
      let at = 0;
      let held = false;
      const send = () => {
        while (at < big.length) {
          if (!held && at >= big.length / 2) {
            held = true;
            void restReleased.then(send);
            return;
          }
          const part = Buffer.from(big.subarray(at, at + chunk));
          at += chunk;
          if (!response.write(part)) {
            response.once('drain', send);
            return;
          }
        }
        response.end();
      };
      send();
      return;
    }
    if (path.endsWith('/tiny.gguf') || path.endsWith('/resolve/main/tiny-q8.gguf')) {
      response.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(gguf.length),
      });
      if (request.method === 'HEAD') response.end();
      else response.end(Buffer.from(gguf));
      return;
    }
    response.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  releaseRest();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

// Every folder a test made, not only the last: a test may make more than one.
const homes: string[] = [];
afterEach(async () => {
  for (const made of homes.splice(0)) await rm(made, { recursive: true, force: true });
});

async function freshHome(): Promise<{ configFile: string; cache: string }> {
  const home = await mkdtemp(join(tmpdir(), 'mecha-model-uri-'));
  homes.push(home);
  return { configFile: join(home, 'config.toml'), cache: join(home, 'models') };
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('modelLocation', () => {
  it('reads hf: and http(s):// as model URIs and everything else as a path', () => {
    expect(modelLocation('hf:bartowski/Qwen2.5-3B-Instruct-GGUF:Q4_K_M')).toEqual({
      kind: 'uri',
      uri: 'hf:bartowski/Qwen2.5-3B-Instruct-GGUF:Q4_K_M',
      scheme: 'hf',
    });
    expect(modelLocation(' hf:user/repo/sub/model.Q8_0.gguf ')).toMatchObject({ kind: 'uri' });
    expect(modelLocation('huggingface://user/repo')).toMatchObject({ kind: 'uri', scheme: 'hf' });
    expect(modelLocation('https://example.com/m.gguf')).toMatchObject({ scheme: 'https' });
    expect(modelLocation('models/m.gguf')).toEqual({ kind: 'file', path: 'models/m.gguf' });
    expect(modelLocation('~/hf/model.gguf')).toMatchObject({ kind: 'file' });
    for (const bad of ['hf:bad', 'hf:user/', 'hf:user/repo/notgguf', 'https://', 'hf:a b/c']) {
      expect(modelLocation(bad), bad).toMatchObject({ kind: 'invalid_uri' });
    }
  });

  it('refuses a URL holding a user name or password, and never repeats it', async () => {
    for (const secret of [
      'https://ana:s3cret@models.example/m.gguf',
      'https://t0ken@models.example/m.gguf',
      // Refused as a secret before it could be named an ill-formed URI (and echoed).
      'https://ana:s3cret@models.example/my model.gguf',
      'https://ana:s3cret@/m.gguf',
      'https://bucket.example/m.gguf?X-Amz-Signature=s3cret&X-Amz-Credential=t0ken',
    ]) {
      expect(modelLocation(secret)).toEqual({ kind: 'secret_in_uri' });
      const { configFile } = await freshHome();
      const result = await resolveModelPath({ path: secret }, { configFile });
      expect(result.state).toBe('unreadable');
      if (result.state === 'read') continue;
      expect(result.error.problem).toBe('secret_in_uri');
      expect(result.error.message).toMatch(
        /holds a user name, a password or a secret-looking query/,
      );
      expect(result.error.message).not.toMatch(/s3cret|t0ken/);
    }
  });

  it('never reads a value without a URI scheme as anything but a path', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        fc.pre(!/^\s*(hf|huggingface|https?):/i.test(value));
        expect(modelLocation(value).kind).toBe('file');
      }),
    );
  });
});

describe('[model] path as a model URI', () => {
  it('fetches an http(s) URL into the cache folder beside the config, and finds it there next time without the network', async () => {
    const { configFile, cache } = await freshHome();
    const uri = `${base}/files/tiny.gguf`;
    const first = await resolveModelPath({ path: uri }, { configFile });
    expect(first).toEqual({ state: 'read', value: join(cache, 'tiny.gguf') });
    expect(new Uint8Array(await readFile(join(cache, 'tiny.gguf')))).toEqual(gguf);
    // The fetched file is a model node-llama-cpp loads.
    const model = createLocalModel({ path: join(cache, 'tiny.gguf'), threads: 1, gpu: false });
    try {
      expect((await model.load()).trainContextSize).toBe(2048);
    } finally {
      await model.dispose();
    }
    const seen = requests.length;
    const again = await resolveModelPath({ path: uri }, { configFile, download: false });
    expect(again).toEqual(first);
    expect(requests.length).toBe(seen);
  });

  it('resolves an hf: URI against the Hugging Face endpoint, named as node-llama-cpp names it', async () => {
    const { configFile, cache } = await freshHome();
    const result = await resolveModelPath(
      { path: 'hf:someone/tiny-GGUF/tiny-q8.gguf' },
      { configFile, huggingFaceEndpoint: `${base}/` },
    );
    expect(result).toEqual({ state: 'read', value: join(cache, 'hf_someone_tiny-q8.gguf') });
    expect(
      requests.some((line) => line.includes('/someone/tiny-GGUF/resolve/main/tiny-q8.gguf')),
    ).toBe(true);
  });

  // Without the one look before the fetch, node-llama-cpp's downloader retries for minutes.
  it('says clearly and at once when the fetch fails (no network), naming the URI, the cache folder and what to do', {
    timeout: 60_000,
  }, async () => {
    const { configFile, cache } = await freshHome();
    const port = await closedPort();
    for (const options of [
      { path: `http://127.0.0.1:${port}/m.gguf`, endpoint: undefined },
      { path: 'hf:someone/tiny-GGUF:Q4_K_M', endpoint: `http://127.0.0.1:${port}/` },
      { path: `${base}/missing.gguf`, endpoint: undefined },
    ]) {
      const result = await resolveModelPath(
        { path: options.path },
        {
          configFile,
          ...(options.endpoint === undefined ? {} : { huggingFaceEndpoint: options.endpoint }),
        },
      );
      expect(result.state, options.path).toBe('unreadable');
      if (result.state === 'read') continue;
      expect(ModelConfigError.isInstance(result.error)).toBe(true);
      expect(result.error.problem).toBe('fetch_failed');
      expect(result.error.cacheDir).toBe(cache);
      expect(result.error.message).toContain(`The model ${options.path} named by [model] path in`);
      expect(result.error.message).toContain(`could not be fetched into ${cache}`);
      expect(result.error.message).toContain('download the GGUF file yourself');
      // Nothing half-fetched is left to be mistaken for the model later, nor an empty cache.
      expect(existsSync(cache)).toBe(false);
    }
  });

  it('refuses a URI of the wrong shape without fetching anything', async () => {
    const { configFile } = await freshHome();
    const seen = requests.length;
    const result = await resolveModelPath({ path: 'hf:just-a-name' }, { configFile });
    expect(result).toMatchObject({ state: 'unreadable', error: { problem: 'invalid_uri' } });
    if (result.state === 'unreadable')
      expect(result.error.message).toMatch(/hf:<user>\/<repo>:<quant>/);
    expect(requests.length).toBe(seen);
  });

  it('tells a fetch as it goes: a start, bytes that only grow and end at the file size, an end; nothing for a cached file', {
    timeout: 60_000,
  }, async () => {
    const { configFile, cache } = await freshHome();
    const uri = `${base}/files/big.gguf`;
    const events: ModelFetchEvent[] = [];
    restReleased = new Promise((resolve) => {
      releaseRest = resolve;
    });
    const result = await resolveModelPath(
      { path: uri },
      {
        configFile,
        onFetch: (event) => {
          events.push(event);
          if (event.kind === 'progress') releaseRest();
        },
      },
    );
    expect(result).toEqual({ state: 'read', value: join(cache, 'big.gguf') });
    expect(new Uint8Array(await readFile(join(cache, 'big.gguf')))).toEqual(big);
    expect(events[0]).toEqual({ kind: 'start', uri, directory: cache, totalSize: big.length });
    expect(events.at(-1)).toEqual({
      kind: 'end',
      uri,
      path: join(cache, 'big.gguf'),
      size: big.length,
    });
    const progress = events.slice(1, -1);
    expect(progress.length).toBeGreaterThan(0);
    const sizes: number[] = [];
    for (const event of progress) {
      if (event.kind !== 'progress') throw new Error(`unexpected ${event.kind} mid-fetch`);
      expect(event.uri).toBe(uri);
      if (event.totalSize !== undefined) expect(event.totalSize).toBe(big.length);
      sizes.push(event.downloadedSize);
    }
    for (let index = 1; index < sizes.length; index += 1) {
      expect(sizes[index], `byte count ${index}`).toBeGreaterThan(sizes[index - 1] ?? 0);
    }
    expect(sizes.at(-1)).toBe(big.length);
    // Told mid-fetch, not only at the end (were bytes not told as they come, the held half would
    // never be sent and this test would time out): the rest was held until a figure arrived.
    expect(sizes[0]).toBeLessThan(big.length);

    // Found in the cache: no fetch, so nothing is told.
    const quiet: ModelFetchEvent[] = [];
    await resolveModelPath({ path: uri }, { configFile, onFetch: (event) => quiet.push(event) });
    expect(quiet).toEqual([]);
  });

  it('tells a failed fetch as failed, and tells nothing when the host cannot be reached at all', async () => {
    const { configFile } = await freshHome();
    const events: ModelFetchEvent[] = [];
    const port = await closedPort();
    const result = await resolveModelPath(
      { path: `http://127.0.0.1:${port}/m.gguf` },
      { configFile, onFetch: (event) => events.push(event) },
    );
    expect(result.state).toBe('unreadable');
    expect(events).toEqual([]);
  });

  it('with download off, a URI not in the cache is a fetch failure, not a wait', async () => {
    const { configFile } = await freshHome();
    const result = await resolveModelPath(
      { path: `${base}/files/tiny.gguf` },
      { configFile, download: false },
    );
    expect(result).toMatchObject({ state: 'unreadable', error: { problem: 'fetch_failed' } });
  });
});
