import Database from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';
import type { SqlValue } from '../graph-database.js';
import { writeLockKey } from '../migrate-postgres.js';
import { templateDatabase } from './postgres-global-setup.js';
import { tempDatabase } from './temp-graph.js';

/** A fresh, empty graph database on one engine, with a way to look at its rows directly. */
export interface TestGraph {
  /** What openGraphStore takes: a file path or a connection URL. */
  readonly path: string;
  /** Rows of a query run directly against the database (`?` placeholders, numbers as numbers). */
  rows<T = Record<string, unknown>>(text: string, ...parameters: readonly SqlValue[]): Promise<T[]>;
  /** The first row of such a query. */
  row<T = Record<string, unknown>>(text: string, ...parameters: readonly SqlValue[]): Promise<T>;
  /** The schema version the database records. */
  schemaVersion(): Promise<number>;
  /** Writes a schema version straight into the database, as a newer (or older) build would. */
  setSchemaVersion(version: number): Promise<void>;
  /** Takes the version 2 step (the text index) out again, as a version 1 database was. */
  downgradeToVersion1(): Promise<void>;
  /** Holds the graph's write lock from another connection until the returned function runs. */
  holdWriteLock(): Promise<() => Promise<void>>;
  remove(): Promise<void>;
}

export interface TestEngine {
  readonly name: 'sqlite' | 'postgres';
  create(): Promise<TestGraph>;
}

const numbers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

function numbered(text: string): string {
  let index = 0;
  return text.replace(/\?/g, () => {
    index += 1;
    return `$${index}`;
  });
}

const sqlite: TestEngine = {
  name: 'sqlite',
  async create() {
    const made = tempDatabase();
    let reader: Database.Database | undefined;
    const rows = async <T>(text: string, ...parameters: readonly SqlValue[]) => {
      reader ??= new Database(made.path, { readonly: true });
      return reader.prepare(text).all(...parameters) as T[];
    };
    const write = (work: (db: Database.Database) => void) => {
      const db = new Database(made.path);
      try {
        work(db);
      } finally {
        db.close();
      }
    };
    return {
      path: made.path,
      schemaVersion: async () => {
        const db = new Database(made.path, { readonly: true });
        try {
          return Number(db.pragma('user_version', { simple: true }));
        } finally {
          db.close();
        }
      },
      setSchemaVersion: async (version) =>
        write((db) => {
          db.pragma(`user_version = ${Math.trunc(version)}`);
        }),
      downgradeToVersion1: async () =>
        write((db) => {
          db.exec(
            'DROP TRIGGER facts_text_insert; DROP TRIGGER facts_text_delete; DROP TRIGGER facts_text_update; DROP TABLE facts_text; PRAGMA user_version = 1;',
          );
        }),
      rows,
      row: async <T>(text: string, ...parameters: readonly SqlValue[]) =>
        (await rows<T>(text, ...parameters))[0] as T,
      holdWriteLock: async () => {
        const holder = new Database(made.path);
        holder.exec('BEGIN IMMEDIATE');
        return async () => {
          holder.exec('COMMIT');
          holder.close();
        };
      },
      remove: async () => {
        reader?.close();
        made.remove();
      },
    };
  },
};

let created = 0;

const postgres: TestEngine = {
  name: 'postgres',
  async create() {
    const base = inject('postgresBaseUrl');
    created += 1;
    const name = `graph_${process.pid}_${created}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: `${base}/postgres` });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateDatabase}`);
    } finally {
      await admin.end();
    }
    const url = `${base}/${name}`;
    let reader: Promise<pg.Client> | undefined;
    const rows = async <T>(text: string, ...parameters: readonly SqlValue[]) => {
      reader ??= (async () => {
        const client = new pg.Client({ connectionString: url, types: numbers });
        await client.connect();
        return client;
      })();
      return (await (await reader).query(numbered(text), [...parameters])).rows as T[];
    };
    const write = async (text: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    };
    return {
      path: url,
      schemaVersion: async () =>
        (await rows<{ v: number }>('SELECT max(version) AS v FROM mecha_graph_schema'))[0]?.v ?? 0,
      setSchemaVersion: (version) =>
        write(
          `DELETE FROM mecha_graph_schema; INSERT INTO mecha_graph_schema (version, migrated_at) VALUES (${Math.trunc(version)}, 'test')`,
        ),
      downgradeToVersion1: () =>
        write(
          `DROP INDEX facts_text_trigram; DELETE FROM mecha_graph_schema; INSERT INTO mecha_graph_schema (version, migrated_at) VALUES (1, 'test')`,
        ),
      rows,
      row: async <T>(text: string, ...parameters: readonly SqlValue[]) =>
        (await rows<T>(text, ...parameters))[0] as T,
      holdWriteLock: async () => {
        const holder = new pg.Client({ connectionString: url });
        await holder.connect();
        await holder.query('SELECT pg_advisory_lock($1)', [writeLockKey]);
        return async () => {
          await holder.query('SELECT pg_advisory_unlock($1)', [writeLockKey]);
          await holder.end();
        };
      },
      // The server and its data folder go at the end of the run; a test's database needs no drop.
      remove: async () => {
        await (await reader)?.end();
      },
    };
  },
};

/** Both engines, for describe.each: every store-level suite runs on SQLite and on PostgreSQL. */
export const testEngines: readonly TestEngine[] = [sqlite, postgres];
