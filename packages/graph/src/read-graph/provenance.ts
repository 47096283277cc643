import { type Taint, taintSql as taintOf } from '../episode-taint.js';
import { factText } from '../fact-rows.js';
import type { GraphDatabase } from '../graph-database.js';
import type { FactRecord } from './fact-record.js';
import type { FactItem } from './items.js';
import { trustOf } from './trust.js';

/** Attaches trust and provenance to fact rows, in a fixed number of queries per page. */
export async function withProvenance(
  graph: GraphDatabase,
  rows: readonly FactRecord[],
  perItem: number,
): Promise<FactItem[]> {
  if (rows.length === 0) return [];
  // One JSON array parameter instead of a list of placeholders keeps each statement cached.
  const ids = JSON.stringify(rows.map((row) => row.id));
  const list =
    graph.dialect === 'postgres'
      ? 'SELECT value::bigint FROM json_array_elements_text(?::json) AS ids(value)'
      : 'SELECT value FROM json_each(?)';
  const taintSql = taintOf(graph.dialect);
  const counts = new Map(
    (
      await graph.all<{
        fact_id: number;
        support_count: number;
        clean: number;
        untrusted: number;
        unknown: number;
      }>(
        `SELECT s.fact_id AS fact_id, count(*) AS support_count,
             sum(CASE WHEN e.id IS NOT NULL AND (${taintSql}) = 'clean' THEN 1 ELSE 0 END) AS clean,
             sum(CASE WHEN e.id IS NOT NULL AND (${taintSql}) = 'untrusted' THEN 1 ELSE 0 END) AS untrusted,
             sum(CASE WHEN e.id IS NOT NULL AND (${taintSql}) = 'unknown' THEN 1 ELSE 0 END) AS unknown
           FROM support s LEFT JOIN episodes e ON e.id = s.episode_id
           WHERE s.fact_id IN (${list}) GROUP BY s.fact_id`,
        ids,
      )
    ).map((row) => [row.fact_id, row]),
  );
  const episodes = await graph.all<{
    fact_id: number;
    episode_id: number;
    source: string;
    source_id: string;
    taint: Taint;
  }>(
    `SELECT fact_id, episode_id, source, source_id, taint FROM (
         SELECT s.fact_id AS fact_id, e.id AS episode_id, e.source AS source, e.source_id AS source_id,
           ${taintSql} AS taint,
           row_number() OVER (PARTITION BY s.fact_id ORDER BY e.id DESC) AS rank
         FROM support s JOIN episodes e ON e.id = s.episode_id WHERE s.fact_id IN (${list})) AS ranked
       WHERE rank <= ? ORDER BY fact_id, episode_id DESC`,
    ids,
    perItem,
  );
  const corrections = await graph.all<{ fact_id: number; correction_id: number }>(
    `SELECT fact_id, correction_id FROM (
         SELECT s.fact_id AS fact_id, s.correction_id AS correction_id,
           row_number() OVER (PARTITION BY s.fact_id ORDER BY s.correction_id DESC) AS rank
         FROM support s WHERE s.correction_id IS NOT NULL AND s.fact_id IN (${list})) AS ranked
       WHERE rank <= ? ORDER BY fact_id, correction_id DESC`,
    ids,
    perItem,
  );
  const sources = await graph.all<{ fact_id: number; source: string; corrections_against: number }>(
    `SELECT b.fact_id AS fact_id, b.source AS source, src.corrections_against AS corrections_against FROM (
         SELECT s.fact_id AS fact_id, e.source AS source FROM support s JOIN episodes e ON e.id = s.episode_id
           WHERE s.fact_id IN (${list})
         UNION
         SELECT s.fact_id, c.source FROM support s JOIN corrections c ON c.id = s.correction_id
           WHERE s.fact_id IN (${list})) b
       JOIN sources src ON src.source = b.source ORDER BY b.fact_id, src.corrections_against, b.source`,
    ids,
    ids,
  );
  return rows.map((row) => {
    const count = counts.get(row.id);
    const mine = episodes.filter((episode) => episode.fact_id === row.id);
    const trusted = sources
      .filter((source) => source.fact_id === row.id)
      .slice(0, perItem)
      .map((source) => ({ source: source.source, trust: trustOf(source.corrections_against) }));
    return {
      type: 'fact',
      ...row,
      text: factText(row),
      trust: trusted.reduce((best, source) => Math.max(best, source.trust), 0),
      provenance: {
        support_count: count?.support_count ?? 0,
        sources: trusted,
        episodes: mine.map(({ episode_id, source, source_id, taint }) => ({
          episode_id,
          source,
          source_id,
          taint,
        })),
        episode_ids: mine.map((episode) => episode.episode_id),
        correction_ids: corrections
          .filter((correction) => correction.fact_id === row.id)
          .map((correction) => correction.correction_id),
        taint: {
          clean: count?.clean ?? 0,
          untrusted: count?.untrusted ?? 0,
          unknown: count?.unknown ?? 0,
        },
      },
    };
  });
}
