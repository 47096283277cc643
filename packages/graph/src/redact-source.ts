import { closeFact, supportCount } from './fact-rows.js';
import type { GraphBackend } from './graph-database.js';
import { parseInput } from './parse-input.js';
import { type RedactInput, redactSchema } from './schemas.js';

/** What a redaction took out (or, with dry_run, would take out). */
export interface RedactionReport {
  readonly dry_run: boolean;
  readonly episodes_redacted: number;
  readonly corrections_redacted: number;
  readonly support_rows_removed: number;
  /** Current facts closed (status retracted) because the redaction took their last support. */
  readonly facts_closed: number;
  readonly fact_ids_closed: readonly number[];
}

const listedIds = 100;

class DryRun extends Error {
  constructor(readonly report: RedactionReport) {
    super('dry run');
  }
}

/**
 * Takes a source set out of the graph: its support rows go, current facts left unsupported are
 * closed, episode bodies and metadata are blanked to tombstones that keep only the key and time
 * (so a re-push is refused), and its corrections' texts are blanked. Person-only.
 */
export async function redactSource(
  backend: GraphBackend,
  input: RedactInput,
): Promise<RedactionReport> {
  const parsed = parseInput(redactSchema, input, 'kg_redact request');
  const dryRun = parsed.dry_run === true;
  const scope = parsed.source_id === undefined ? 'source = ?' : 'source = ? AND source_id = ?';
  const key = parsed.source_id === undefined ? [parsed.source] : [parsed.source, parsed.source_id];
  try {
    return await backend.write(async (graph) => {
      const now = graph.now();
      const episodes = await graph.all<{ id: number }>(
        `SELECT id FROM episodes WHERE ${scope} AND redacted_at IS NULL ORDER BY id`,
        ...key,
      );
      const corrections = await graph.all<{ id: number }>(
        `SELECT id FROM corrections WHERE ${scope} AND redacted_at IS NULL ORDER BY id`,
        ...key,
      );
      const touched = new Set<number>();
      let removed = 0;
      const factsOf = async (column: 'episode_id' | 'correction_id', id: number) => {
        const rows = await graph.all<{ fact_id: number }>(
          `SELECT DISTINCT fact_id FROM support WHERE ${column} = ?`,
          id,
        );
        for (const row of rows) touched.add(row.fact_id);
        removed += await graph.run(`DELETE FROM support WHERE ${column} = ?`, id);
      };
      for (const episode of episodes) await factsOf('episode_id', episode.id);
      for (const correction of corrections) await factsOf('correction_id', correction.id);
      const closed: number[] = [];
      for (const factId of [...touched].sort((a, b) => a - b)) {
        const open = await graph.get(
          'SELECT 1 AS open FROM facts WHERE id = ? AND closed_at IS NULL',
          factId,
        );
        if (open === undefined || (await supportCount(graph, factId)) > 0) continue;
        await closeFact(
          graph,
          factId,
          'retracted',
          `redaction of ${parsed.source} took its last support`,
          now,
          now,
        );
        closed.push(factId);
      }
      for (const episode of episodes) {
        await graph.run(
          `UPDATE episodes SET body = '', meta = '{}', source_ref = NULL, content_hash = '', salience = 0,
             redacted_at = ?, updated_at = ? WHERE id = ?`,
          now,
          now,
          episode.id,
        );
      }
      for (const correction of corrections) {
        await graph.run(
          `UPDATE corrections SET wrong_spec = 'null', right_spec = NULL, about = NULL, redacted_at = ?,
             status = CASE status WHEN 'review' THEN 'dismissed' ELSE status END,
             resolved_at = CASE status WHEN 'review' THEN ? ELSE resolved_at END
           WHERE id = ?`,
          now,
          now,
          correction.id,
        );
      }
      const report: RedactionReport = {
        dry_run: dryRun,
        episodes_redacted: episodes.length,
        corrections_redacted: corrections.length,
        support_rows_removed: removed,
        facts_closed: closed.length,
        fact_ids_closed: closed.slice(0, listedIds),
      };
      // A dry run does the same work and throws, so the transaction rolls every change back.
      if (dryRun) throw new DryRun(report);
      return report;
    });
  } catch (error) {
    if (error instanceof DryRun) return error.report;
    throw error;
  }
}
