import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database, { type Statement } from 'better-sqlite3';
import {
  type GraphBackend,
  type GraphDatabase,
  type SqlValue,
  serialQueue,
} from './graph-database.js';
import type { Extractor } from './metadata-extractor.js';
import { migrate } from './migrate.js';

export interface SqliteBackendOptions {
  readonly path: string;
  readonly extractor: Extractor;
  readonly busyTimeoutMs: number;
  readonly clock: () => Date;
}

/**
 * The embedded engine: one SQLite file in WAL mode, shared by any number of processes. Calls
 * on one store run one at a time (the connection is synchronous, so nothing is lost by it), and
 * a write opens with BEGIN IMMEDIATE so it holds the file's write lock from the start.
 */
export function openSqliteBackend(options: SqliteBackendOptions): GraphBackend {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path, { timeout: options.busyTimeoutMs });
  try {
    migrate(db, options.busyTimeoutMs);
  } catch (error) {
    db.close();
    throw error;
  }
  const cache = new Map<string, Statement>();
  const prepared = (text: string): Statement => {
    let statement = cache.get(text);
    if (statement === undefined) {
      statement = db.prepare(text);
      cache.set(text, statement);
    }
    return statement;
  };
  const connection = (): GraphDatabase => {
    return {
      dialect: 'sqlite',
      extractor: options.extractor,
      now: () => options.clock().toISOString(),
      get: async <T>(text: string, ...parameters: readonly SqlValue[]) =>
        prepared(text).get(...parameters) as T | undefined,
      all: async <T>(text: string, ...parameters: readonly SqlValue[]) =>
        prepared(text).all(...parameters) as T[],
      run: async (text, ...parameters) => prepared(text).run(...parameters).changes,
    };
  };
  const queue = serialQueue();
  let closed = false;
  return {
    dialect: 'sqlite',
    location: options.path,
    write: (work) =>
      queue(async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(connection());
          db.exec('COMMIT');
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        }
      }),
    read: (work) => queue(() => work(connection())),
    close: async () => {
      if (closed) return;
      closed = true;
      await queue(async () => undefined);
      db.close();
    },
  };
}
