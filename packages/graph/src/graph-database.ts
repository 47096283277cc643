import type { Database, Statement } from 'better-sqlite3';
import type { Extractor } from './metadata-extractor.js';

/** What every store operation works through: one connection, cached statements, a clock. */
export interface GraphDatabase {
  readonly db: Database;
  readonly extractor: Extractor;
  /** The current time as an ISO string; one value per operation. */
  now(): string;
  /** A prepared statement for `text`, prepared once per connection. */
  sql(text: string): Statement;
}

/** Wraps an open connection with a statement cache. */
export function graphDatabase(
  db: Database,
  extractor: Extractor,
  clock: () => Date,
): GraphDatabase {
  const cache = new Map<string, Statement>();
  return {
    db,
    extractor,
    now: () => clock().toISOString(),
    sql(text) {
      let statement = cache.get(text);
      if (statement === undefined) {
        statement = db.prepare(text);
        cache.set(text, statement);
      }
      return statement;
    },
  };
}

/** Runs `work` in one write transaction that takes the lock up front (no upgrade deadlocks). */
export function writeTransaction<T>(graph: GraphDatabase, work: () => T): T {
  return graph.db.transaction(work).immediate();
}
