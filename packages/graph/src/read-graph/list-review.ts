import type { GraphBackend } from '../graph-database.js';
import { graphLimits } from '../limits.js';
import { parseInput } from '../parse-input.js';
import { type ReviewListInput, reviewListSchema } from '../schemas.js';
import { type CorrectionRecord, correctionItem, correctionSelect } from './correction-record.js';
import { type FactRecord, factSelect } from './fact-record.js';
import type { CorrectionItem, ReviewFactItem } from './items.js';
import { bounds, noneSuppressed, type Page, page } from './page.js';
import { withProvenance } from './provenance.js';

/**
 * The review queue: staged facts, most salient first (the worst-going sessions' candidates), or
 * corrections that matched no single belief, oldest first.
 */
export function listReview(
  backend: GraphBackend,
  input: ReviewListInput,
): Promise<Page<ReviewFactItem> | Page<CorrectionItem>> {
  const parsed = parseInput(reviewListSchema, input, 'kg_review_list request');
  const at = bounds(parsed);
  return backend.read(async (graph) => {
    if (parsed.queue === 'corrections') {
      const counted = await graph.get<{ n: number }>(
        `SELECT count(*) AS n FROM corrections WHERE status = 'review'`,
      );
      const rows = await graph.all<CorrectionRecord>(
        `SELECT ${correctionSelect} FROM corrections c JOIN sources src ON src.source = c.source
         WHERE c.status = 'review' ORDER BY c.id LIMIT ? OFFSET ?`,
        at.limit,
        at.offset,
      );
      return page(rows.map(correctionItem), counted?.n ?? 0, at, noneSuppressed);
    }
    const counted = await graph.get<{ n: number }>(
      `SELECT count(*) AS n FROM facts WHERE status = 'staged'`,
    );
    const rows = await graph.all<FactRecord & { salience: number }>(
      `SELECT ${factSelect}, coalesce((SELECT max(e.salience) FROM support s JOIN episodes e ON e.id = s.episode_id
         WHERE s.fact_id = f.id), 0) AS salience
       FROM facts f WHERE f.status = 'staged' ORDER BY salience DESC, f.id ASC LIMIT ? OFFSET ?`,
      at.limit,
      at.offset,
    );
    const salience = new Map(rows.map((row) => [row.id, row.salience]));
    const items = (
      await withProvenance(
        graph,
        rows.map(({ salience: _, ...row }) => row),
        graphLimits.provenancePerItem,
      )
    ).map((item) => ({ ...item, salience: salience.get(item.id) ?? 0 }));
    return page(items, counted?.n ?? 0, at, noneSuppressed);
  });
}
