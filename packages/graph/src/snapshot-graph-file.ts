import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { GraphInputError } from './graph-input-error.js';
import { graphLimits } from './limits.js';
import { schemaVersion } from './migrate.js';
import { isPostgresUrl, redactedUrl } from './postgres-backend.js';

function removeQuietly(path: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm'])
    rmSync(`${path}${suffix}`, { force: true });
}

/**
 * Writes a consistent copy of a live SQLite graph file `from` into the new file `to`, through a
 * read-only connection and SQLite's `VACUUM INTO`: the copy is one read transaction's view, so a
 * writer in another process neither blocks it nor tears it, and `from` is never written (as
 * with any SQLite reader, its `-wal` and `-shm` side files may be created). The copy opens with
 * openGraphStore like the original.
 *
 * Refuses with GraphInputError, creating nothing at `to`: a PostgreSQL URL (a snapshot copies a
 * SQLite file), a missing file, a file that is not SQLite, a SQLite file that is not a mecha
 * graph or has a newer schema than this build, and a `to` that already exists.
 */
export async function snapshotGraphFile(from: string, to: string): Promise<void> {
  if (isPostgresUrl(from)) {
    throw new GraphInputError(
      `${redactedUrl(from)} is a PostgreSQL database: a snapshot copies a SQLite graph file (use PostgreSQL's own tools, such as pg_dump, to copy a team graph)`,
    );
  }
  if (!existsSync(from) || !statSync(from).isFile()) {
    throw new GraphInputError(`there is no graph file at ${from}`);
  }
  if (existsSync(to)) {
    throw new GraphInputError(`${to} already exists: a snapshot is written only to a new file`);
  }
  let source: Database.Database | undefined;
  try {
    try {
      source = new Database(from, {
        readonly: true,
        fileMustExist: true,
        timeout: graphLimits.busyTimeoutMs,
      });
      const tables = source
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name = 'episodes'")
        .all();
      const version = Number(source.pragma('user_version', { simple: true }));
      if (tables.length === 0 || version < 1) {
        throw new GraphInputError(`${from} is a SQLite file but not a mecha graph`);
      }
      if (version > schemaVersion) {
        throw new GraphInputError(
          `${from} has graph schema version ${version}, and this build knows only up to ${schemaVersion}: upgrade @mecha/graph`,
        );
      }
    } catch (error) {
      if (GraphInputError.isInstance(error)) throw error;
      throw new GraphInputError(
        `${from} cannot be read as a SQLite graph: ${(error as Error).message}`,
        { cause: error },
      );
    }
    // Written under a name of its own first, then linked to `to` (which fails if something
    // made `to` meanwhile): a failure removes only what this call wrote, never another's file.
    const written = `${to}.${process.pid}-${randomBytes(6).toString('hex')}.partial`;
    try {
      source.prepare('VACUUM INTO ?').run(written);
      linkSync(written, to);
    } catch (error) {
      throw new GraphInputError(
        `the snapshot of ${from} could not be written to ${to}: ${(error as Error).message}`,
        { cause: error },
      );
    } finally {
      removeQuietly(written);
    }
  } finally {
    source?.close();
  }
}
