import { describe, expect, it } from 'vitest';
import { defaultDatabasePath, resolveDatabasePath } from './database-path.js';
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
      http: { host: '127.0.0.1', port: defaultHttpPort, hostGiven: false },
    });
    expect(
      parseServerArguments(['--http', '--port', '0', '--host', '0.0.0.0', '--role', 'owner']),
    ).toEqual({
      kind: 'serve',
      db: undefined,
      role: 'owner',
      http: { host: '0.0.0.0', port: 0, hostGiven: true },
    });
    expect(parseServerArguments(['--http', '--port=65535'])).toMatchObject({
      http: { port: 65_535 },
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
});
