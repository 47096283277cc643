import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { EpisodeItem } from '@mecha/graph';
import Database from 'better-sqlite3';

/** The built `mecha-graph-mcp`: tests spawn what users install, not the sources. */
export const graphBin = join(
  dirname(createRequire(import.meta.url).resolve('@mecha/graph')),
  'bin.js',
);

/** A temporary folder and a way to remove it. */
export function tempFolder(prefix = 'mecha-distill-'): { folder: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** How a test home's `[[mcp]]` graph entry starts the server. */
export interface GraphConfigOptions {
  /** Written by the wrapper shell with the server's pid, so a test can kill it. */
  readonly pidFile?: string;
  /** Leave `[mcp.capabilities] untrusted_input` out. */
  readonly trusted?: boolean;
  /** Another name than `graph`. */
  readonly name?: string;
  /** Start this command instead of the graph server. */
  readonly command?: { readonly command: string; readonly args: readonly string[] };
}

const toml = (text: string) => JSON.stringify(text);

/** Writes `config.toml` into a home with a graph server entry pointing at `db`. */
export function writeGraphConfig(home: string, db: string, options: GraphConfigOptions = {}): void {
  let command = process.execPath;
  let args: readonly string[] = [graphBin, '--db', db];
  if (options.pidFile !== undefined) {
    command = '/bin/sh';
    args = [
      '-c',
      `echo $$ > ${JSON.stringify(options.pidFile)}; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(graphBin)} --db ${JSON.stringify(db)}`,
    ];
  }
  if (options.command !== undefined) ({ command, args } = options.command);
  const lines = [
    '[agent]',
    'timezone = "Europe/Berlin"',
    '',
    '[[mcp]]',
    `name = ${toml(options.name ?? 'graph')}`,
    `command = ${toml(command)}`,
    `args = [${args.map(toml).join(', ')}]`,
    'prefix_tools = false',
  ];
  if (options.trusted !== true) lines.push('', '[mcp.capabilities]', 'untrusted_input = true');
  writeFileSync(join(home, 'config.toml'), `${lines.join('\n')}\n`);
}

/** One episodes row as stored (the columns the graph's own item type names), meta parsed. */
export type EpisodeRow = Pick<
  EpisodeItem,
  'kind' | 'source' | 'source_id' | 'source_ref' | 'occurred_at' | 'body' | 'version'
> & { readonly meta: Record<string, unknown> };

/** One corrections row as stored. */
export interface CorrectionRow {
  readonly source: string;
  readonly source_id: string | null;
  readonly status: string;
  readonly wrong_spec: string;
}

/** Reads the graph database directly, read-only: episodes and corrections. */
/** A candidate or belief as the graph's store holds it, with the episode that supports it. */
export interface FactRow {
  readonly kind: string;
  readonly subject: string;
  readonly predicate: string;
  readonly object: string;
  readonly status: string;
  readonly source_id: string | null;
}

/** Every fact the graph holds that an episode supports, in insertion order. */
export function readFacts(db: string): FactRow[] {
  const database = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return database
      .prepare(
        `SELECT f.kind, f.subject, f.predicate, f.object, f.status, e.source_id
           FROM facts f JOIN support s ON s.fact_id = f.id LEFT JOIN episodes e ON e.id = s.episode_id
          WHERE s.episode_id IS NOT NULL ORDER BY f.id`,
      )
      .all() as FactRow[];
  } finally {
    database.close();
  }
}

export function readGraph(db: string): { episodes: EpisodeRow[]; corrections: CorrectionRow[] } {
  const database = new Database(db, { readonly: true, fileMustExist: true });
  try {
    const episodes = (
      database
        .prepare(
          'SELECT kind, source, source_id, source_ref, occurred_at, body, meta, version FROM episodes ORDER BY id',
        )
        .all() as (Omit<EpisodeRow, 'meta'> & { meta: string })[]
    ).map((row) => ({ ...row, meta: JSON.parse(row.meta) as Record<string, unknown> }));
    const corrections = database
      .prepare('SELECT source, source_id, status, wrong_spec FROM corrections ORDER BY id')
      .all() as CorrectionRow[];
    return { episodes, corrections };
  } finally {
    database.close();
  }
}
