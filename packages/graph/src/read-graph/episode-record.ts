import { type Taint, taintSql } from '../episode-taint.js';
import type { GraphDialect } from '../graph-database.js';
import type { EpisodeItem } from './items.js';
import { trustOf } from './trust.js';

/** An episode row as the reads select it. */
export interface EpisodeRecord {
  id: number;
  kind: string;
  source: string;
  source_id: string;
  source_ref: string | null;
  occurred_at: string;
  body: string;
  body_length: number;
  taint: Taint;
  salience: number;
  version: number;
  content_hash: string;
  created_at: string;
  updated_at: string;
  redacted_at: string | null;
  corrections_against: number;
  fact_count: number;
}

/**
 * The columns of an episode; with `preview`, the body is cut to about that many characters
 * (cut exactly by previewOf). PostgreSQL stores U+0000 and U+FFFF as two characters (see
 * postgres-backend.ts), so there the cut is wider and the length leaves the escapes out.
 */
export function episodeSelect(dialect: GraphDialect, preview?: number): string {
  const pg = dialect === 'postgres';
  const body =
    preview === undefined ? 'e.body' : `substr(e.body, 1, ${pg ? preview * 2 : preview})`;
  const length = pg ? "length(replace(e.body, chr(65535), ''))" : 'length(e.body)';
  return `e.id, e.kind, e.source, e.source_id, e.source_ref, e.occurred_at, ${body} AS body,
    ${length} AS body_length, ${taintSql(dialect)} AS taint, e.salience, e.version, e.content_hash,
    e.created_at, e.updated_at, e.redacted_at, src.corrections_against AS corrections_against,
    (SELECT count(DISTINCT s.fact_id) FROM support s WHERE s.episode_id = e.id) AS fact_count`;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

export function episodeItem(row: EpisodeRecord): EpisodeItem {
  const { body_length, corrections_against, ...rest } = row;
  return {
    type: 'episode',
    ...rest,
    // body_length counts code points (SQLite's length()), so the body is counted the same way.
    body_truncated: body_length > codePoints(row.body),
    status: row.redacted_at === null ? 'current' : 'redacted',
    trust: trustOf(corrections_against),
    provenance: { source: row.source, source_id: row.source_id, episode_ids: [row.id] },
  };
}

/** The first `characters` code points of a body preview, as SQLite's substr cuts it. */
export function previewOf(body: string, characters: number): string {
  if (body.length <= characters) return body;
  let out = '';
  let count = 0;
  for (const char of body) {
    if (count === characters) break;
    out += char;
    count += 1;
  }
  return out;
}
