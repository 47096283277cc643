import { type Taint, taintSql } from '../episode-taint.js';
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

export function episodeSelect(body: string): string {
  return `e.id, e.kind, e.source, e.source_id, e.source_ref, e.occurred_at, ${body} AS body,
    length(e.body) AS body_length, ${taintSql} AS taint, e.salience, e.version, e.content_hash,
    e.created_at, e.updated_at, e.redacted_at, src.corrections_against AS corrections_against,
    (SELECT count(DISTINCT s.fact_id) FROM support s WHERE s.episode_id = e.id) AS fact_count`;
}

export function episodeItem(row: EpisodeRecord): EpisodeItem {
  const { body_length, corrections_against, ...rest } = row;
  return {
    type: 'episode',
    ...rest,
    body_truncated: body_length > row.body.length,
    status: row.redacted_at === null ? 'current' : 'redacted',
    trust: trustOf(corrections_against),
    provenance: { source: row.source, source_id: row.source_id, episode_ids: [row.id] },
  };
}
