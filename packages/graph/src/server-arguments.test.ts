import { describe, expect, it } from 'vitest';
import { defaultDatabasePath, resolveDatabasePath } from './database-path.js';
import { graphLimits } from './limits.js';
import { defaultHttpPort, parseServerArguments } from './server-arguments.js';

describe('parseServerArguments', () => {
  it('serves as the distiller on the default file when given nothing', () => {
    expect(parseServerArguments([])).toEqual({ kind: 'serve', db: undefined, role: 'distiller' });
  });

  it('reads --db and --role in either spelling', () => {
    expect(parseServerArguments(['--db', '/x/g.db', '--role=owner'])).toEqual({
      kind: 'serve',
      db: '/x/g.db',
      role: 'owner',
    });
  });

  it('refuses an unknown role, an unknown flag and an empty path', () => {
    expect(parseServerArguments(['--role', 'root'])).toMatchObject({ kind: 'error' });
    expect(parseServerArguments(['--verbose'])).toMatchObject({ kind: 'error' });
    expect(parseServerArguments(['--db='])).toMatchObject({
      kind: 'error',
      message: '--db needs a file path',
    });
    expect(parseServerArguments(['stray'])).toMatchObject({ kind: 'error' });
  });

  it('reads --http with its defaults, --port and --host', () => {
    expect(parseServerArguments(['--http'])).toEqual({
      kind: 'serve',
      db: undefined,
      role: 'distiller',
      http: {
        host: '127.0.0.1',
        port: defaultHttpPort,
        hostGiven: false,
        sessionIdleMs: graphLimits.httpSessionIdleMs,
      },
    });
    expect(
      parseServerArguments(['--http', '--port', '0', '--host', '0.0.0.0', '--role', 'owner']),
    ).toEqual({
      kind: 'serve',
      db: undefined,
      role: 'owner',
      http: {
        host: '0.0.0.0',
        port: 0,
        hostGiven: true,
        sessionIdleMs: graphLimits.httpSessionIdleMs,
      },
    });
    expect(parseServerArguments(['--http', '--port=65535'])).toMatchObject({
      http: { port: 65_535 },
    });
    expect(parseServerArguments(['--http', '--session-idle', '90'])).toMatchObject({
      http: { sessionIdleMs: 90_000 },
    });
    expect(parseServerArguments(['--http', '--session-idle=0'])).toMatchObject({
      http: { sessionIdleMs: 0 },
    });
  });

  it('refuses a bad --session-idle, and one without --http', () => {
    for (const idle of ['-1', '1.5', '', 'ten']) {
      expect(parseServerArguments(['--http', `--session-idle=${idle}`])).toMatchObject({
        kind: 'error',
        message: expect.stringMatching(/--session-idle must be a whole number of seconds/),
      });
    }
    expect(parseServerArguments(['--session-idle', '60'])).toEqual({
      kind: 'error',
      message: '--session-idle needs --http',
    });
  });

  it('refuses a bad port, an empty host, and --port or --host without --http', () => {
    for (const port of ['65536', '-1', '80a', '', '1.5', '999999']) {
      expect(parseServerArguments(['--http', `--port=${port}`])).toEqual({
        kind: 'error',
        message: `--port must be a whole number from 0 to 65535, not "${port}"`,
      });
    }
    expect(parseServerArguments(['--http', '--host='])).toEqual({
      kind: 'error',
      message: '--host needs an address',
    });
    expect(parseServerArguments(['--port', '80'])).toEqual({
      kind: 'error',
      message: '--port needs --http',
    });
    expect(parseServerArguments(['--host', 'localhost'])).toEqual({
      kind: 'error',
      message: '--host needs --http',
    });
  });

  it('answers --help and --version', () => {
    expect(parseServerArguments(['-h'])).toEqual({ kind: 'help' });
    expect(parseServerArguments(['--version'])).toEqual({ kind: 'version' });
  });
});

describe('resolveDatabasePath', () => {
  it('prefers the flag, then MECHA_GRAPH_DB, then ~/.mecha-graph/graph.db', () => {
    expect(resolveDatabasePath('/flag.db', { MECHA_GRAPH_DB: '/env.db' })).toBe('/flag.db');
    expect(resolveDatabasePath(undefined, { MECHA_GRAPH_DB: '/env.db' })).toBe('/env.db');
    expect(resolveDatabasePath(undefined, { MECHA_GRAPH_DB: '' })).toBe(defaultDatabasePath());
    expect(defaultDatabasePath('/home/you')).toBe('/home/you/.mecha-graph/graph.db');
  });

  it('keeps a PostgreSQL URL as it is, from the flag or the environment', () => {
    const url = 'postgres://team:secret@db.internal:5432/graph';
    expect(resolveDatabasePath(url, {})).toBe(url);
    expect(resolveDatabasePath(undefined, { MECHA_GRAPH_DB: 'postgresql://db/graph' })).toBe(
      'postgresql://db/graph',
    );
    expect(resolveDatabasePath('relative.db', {})).toMatch(/^\/.*relative\.db$/);
  });
});
