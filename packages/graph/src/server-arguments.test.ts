import { describe, expect, it } from 'vitest';
import { defaultDatabasePath, resolveDatabasePath } from './database-path.js';
import { parseServerArguments } from './server-arguments.js';

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
