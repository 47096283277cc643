import pg from 'pg';
import type { GraphBackend, GraphDatabase, SqlValue } from './graph-database.js';
import type { Extractor } from './metadata-extractor.js';
import { migratePostgres, writeLockKey } from './migrate-postgres.js';

export interface PostgresBackendOptions {
  /** A `postgres://` or `postgresql://` connection URL. */
  readonly url: string;
  readonly extractor: Extractor;
  /** How long a write waits for the write lock another writer holds. */
  readonly busyTimeoutMs: number;
  readonly clock: () => Date;
  /** Connections in the pool (default 10). */
  readonly poolSize?: number;
}

/** True for a connection URL the PostgreSQL store takes. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(value);
}

/** The URL with its password replaced, fit for a log line. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    // The driver also takes a password (and key passphrases) from the query string.
    for (const key of [...parsed.searchParams.keys()]) {
      if (/pass|secret|key|token/i.test(key)) parsed.searchParams.set(key, '***');
    }
    return parsed.toString();
  } catch {
    return 'postgres://(an unreadable URL)';
  }
}

// PostgreSQL text cannot hold U+0000, which SQLite stores. Every string going in is escaped and
// every string coming out unescaped, so both engines hand back exactly what they were given:
// U+0000 becomes U+FFFF "0" and U+FFFF itself U+FFFF "1" (one escape character per pair, so the
// stored length minus the U+FFFF count is the real length).
const escapeMark = '\uFFFF';
export function escapeText(text: string): string {
  if (!text.includes('\u0000') && !text.includes(escapeMark)) return text;
  // The mark first, so the marks the NULs become are not escaped again.
  return text.split(escapeMark).join(`${escapeMark}1`).split('\u0000').join(`${escapeMark}0`);
}
export function unescapeText(text: string): string {
  return text.includes(escapeMark)
    ? text.replace(/\uFFFF([01])/g, (_, digit: string) => (digit === '0' ? '\u0000' : escapeMark))
    : text;
}

function unescapeRow<T>(row: Record<string, unknown>): T {
  for (const [key, value] of Object.entries(row)) {
    if (typeof value === 'string' && value.includes(escapeMark)) row[key] = unescapeText(value);
  }
  return row as T;
}

/** `?` placeholders (outside quoted text) as `$1, $2, …`. */
export function numberedPlaceholders(text: string): string {
  let index = 0;
  let out = '';
  let quote: string | undefined;
  for (const char of text) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '?') {
      index += 1;
      out += `$${index}`;
      continue;
    }
    out += char;
  }
  return out;
}

// bigint (ids, counts) and numeric (sums) come back as numbers, as SQLite gives them.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

const busyCodes = new Set(['55P03', '40P01']);

/**
 * The team engine: one PostgreSQL database behind a pool. Writes take one advisory lock for
 * their whole transaction, so writers queue exactly as they do on a SQLite file and every
 * idempotency check sees the rows of the writes before it; reads run in a read-only snapshot
 * and never wait for writers.
 */
export async function openPostgresBackend(options: PostgresBackendOptions): Promise<GraphBackend> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    types,
  });
  // An idle pooled connection the server drops must not crash the process.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    try {
      await migratePostgres(client);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const texts = new Map<string, string>();
  const numbered = (text: string): string => {
    let converted = texts.get(text);
    if (converted === undefined) {
      converted = numberedPlaceholders(text);
      texts.set(text, converted);
    }
    return converted;
  };
  const bind = (parameters: readonly SqlValue[]) =>
    parameters.map((value) => (typeof value === 'string' ? escapeText(value) : value));
  const connection = (client: pg.PoolClient): GraphDatabase => ({
    dialect: 'postgres',
    extractor: options.extractor,
    now: () => options.clock().toISOString(),
    async get<T>(text: string, ...parameters: readonly SqlValue[]) {
      const result = await client.query(numbered(text), bind(parameters));
      const row = result.rows[0] as Record<string, unknown> | undefined;
      return row === undefined ? undefined : unescapeRow<T>(row);
    },
    async all<T>(text: string, ...parameters: readonly SqlValue[]) {
      const result = await client.query(numbered(text), bind(parameters));
      return (result.rows as Record<string, unknown>[]).map((row) => unescapeRow<T>(row));
    },
    async run(text, ...parameters) {
      const result = await client.query(numbered(text), bind(parameters));
      return result.rowCount ?? 0;
    },
  });
  async function transaction<T>(
    begin: string,
    work: (graph: GraphDatabase) => Promise<T>,
  ): Promise<T> {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query(begin);
      const result = await work(connection(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }
  let closed = false;
  return {
    dialect: 'postgres',
    location: redactedUrl(options.url),
    write: (work) =>
      // One round trip: the transaction, how long to wait for the lock, and the lock.
      transaction(
        `BEGIN; SET LOCAL lock_timeout = ${Math.max(1, Math.trunc(options.busyTimeoutMs))}; SELECT pg_advisory_xact_lock(${writeLockKey})`,
        work,
      ),
    read: (work) => transaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', work),
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** True for a PostgreSQL error that means another writer held the lock past the timeout. */
export function isPostgresBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && busyCodes.has(code);
}
