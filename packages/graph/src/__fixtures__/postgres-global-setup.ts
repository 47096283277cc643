import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openGraphStore } from '../open-graph-store.js';
import { startPostgresServer } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test PostgreSQL server, without a database name. */
    postgresBaseUrl: string;
  }
}

/** The database every test database is copied from: already migrated, so a copy is ready. */
export const templateDatabase = 'mecha_graph_template';

/**
 * One real PostgreSQL server for the whole package run (started in about a second, torn down
 * after), so the store suites run against it as well as against SQLite. No server binaries is a
 * failure with the instruction, never a skip: scripts/run.mjs installs them when it can.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const server = await startPostgresServer();
  try {
    const admin = new pg.Client({ connectionString: `${server.baseUrl}/postgres` });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${templateDatabase}`);
    await admin.end();
    const store = await openGraphStore({ path: `${server.baseUrl}/${templateDatabase}` });
    await store.close();
  } catch (error) {
    server.stop();
    throw error;
  }
  project.provide('postgresBaseUrl', server.baseUrl);
  return () => server.stop();
}
