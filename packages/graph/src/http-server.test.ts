import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHttpClient } from './__fixtures__/spawn-http-graph-server.js';
import { tempDatabase } from './__fixtures__/temp-graph.js';
import { createGraphServer } from './create-graph-server.js';
import { bearerMatches, hostnameOf, isLoopback, startGraphHttpServer } from './http-server.js';
import { openGraphStore } from './open-graph-store.js';

describe('isLoopback', () => {
  it('knows the names and addresses only this machine can reach', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) {
      expect(isLoopback(host)).toBe(true);
    }
    for (const host of ['0.0.0.0', '10.0.0.1', 'evil.example', 'localhost.evil.example', '::']) {
      expect(isLoopback(host)).toBe(false);
    }
  });
});

describe('hostnameOf', () => {
  it('reads the name of a Host header and nothing that merely contains one', () => {
    expect(hostnameOf('localhost')).toBe('localhost');
    expect(hostnameOf('127.0.0.1:7411')).toBe('127.0.0.1');
    expect(hostnameOf('[::1]:7411')).toBe('[::1]');
    for (const header of ['evil.example@127.0.0.1', '127.0.0.1/x', '', 'a b', 'localhost:port']) {
      expect(hostnameOf(header)).toBeUndefined();
    }
  });
});

describe('bearerMatches', () => {
  it('accepts exactly "Bearer <token>"', () => {
    expect(bearerMatches('Bearer s3cret', 's3cret')).toBe(true);
    expect(bearerMatches('bearer s3cret', 's3cret')).toBe(true);
    expect(bearerMatches(undefined, 's3cret')).toBe(false);
    expect(bearerMatches('s3cret', 's3cret')).toBe(false);
    expect(bearerMatches('Basic s3cret', 's3cret')).toBe(false);
    expect(bearerMatches('Bearer s3cret ', 's3cret')).toBe(false);
    expect(bearerMatches('Bearer s3cre', 's3cret')).toBe(false);
  });

  it('matches a presented token if and only if it equals the expected one', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        (presented, expected) => {
          expect(bearerMatches(`Bearer ${presented}`, expected)).toBe(presented === expected);
          expect(bearerMatches(`Bearer ${expected}`, expected)).toBe(true);
        },
      ),
    );
  });
});

describe('idle HTTP sessions', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function serve(sessionIdleMs: number) {
    const database = tempDatabase();
    cleanups.push(database.remove);
    const store = await openGraphStore({ path: database.path });
    cleanups.push(() => store.close());
    let now = 1_000_000;
    const http = await startGraphHttpServer({
      host: '127.0.0.1',
      port: 0,
      token: undefined,
      createServer: () => createGraphServer({ store }),
      log: () => undefined,
      sessionIdleMs,
      clock: () => now,
    });
    cleanups.push(() => http.close());
    const connect = async () => {
      const client = await connectHttpClient(http.url);
      cleanups.push(() => client.close().catch(() => undefined));
      return client;
    };
    return { http, connect, advance: (ms: number) => (now += ms) };
  }

  it('closes a session idle past the limit, keeps a recent one, and a new session works', async () => {
    const { http, connect, advance } = await serve(60_000);
    const idle = await connect();
    await idle.listTools();
    advance(30_000);
    const recent = await connect();
    await recent.listTools();
    expect(http.sessionCount()).toBe(2);
    advance(30_000);
    // idle has seen nothing for 60 s, recent for 30 s: only idle goes.
    expect(await http.expireIdleSessions()).toBe(1);
    expect(http.sessionCount()).toBe(1);
    await expect(idle.listTools()).rejects.toThrow(/404|Session not found/);
    expect((await recent.listTools()).tools.length).toBeGreaterThan(0);
    const fresh = await connect();
    expect((await fresh.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('keeps every session when the limit is 0', async () => {
    const { http, connect, advance } = await serve(0);
    await (await connect()).listTools();
    advance(365 * 24 * 3_600_000);
    expect(await http.expireIdleSessions()).toBe(0);
    expect(http.sessionCount()).toBe(1);
  });
});
