import type { GraphDatabase } from '../graph-database.js';
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
  graph: GraphDatabase,
  input: ReviewListInput,
): Page<ReviewFactItem> | Page<CorrectionItem> {
  const parsed = parseInput(reviewListSchema, input, 'kg_review_list request');
  const at = bounds(parsed);
  if (parsed.queue === 'corrections') {
    const { n } = graph
      .sql(`SELECT count(*) AS n FROM corrections WHERE status = 'review'`)
      .get() as {
      n: number;
    };
    const rows = graph
      .sql(
        `SELECT ${correctionSelect} FROM corrections c JOIN sources src ON src.source = c.source
         WHERE c.status = 'review' ORDER BY c.id LIMIT ? OFFSET ?`,
      )
      .all(at.limit, at.offset) as CorrectionRecord[];
    return page(rows.map(correctionItem), n, at, noneSuppressed);
  }
  const { n } = graph.sql(`SELECT count(*) AS n FROM facts WHERE status = 'staged'`).get() as {
    n: number;
  };
  const rows = graph
    .sql(
      `SELECT ${factSelect}, coalesce((SELECT max(e.salience) FROM support s JOIN episodes e ON e.id = s.episode_id
         WHERE s.fact_id = f.id), 0) AS salience
       FROM facts f WHERE f.status = 'staged' ORDER BY salience DESC, f.id ASC LIMIT ? OFFSET ?`,
    )
    .all(at.limit, at.offset) as (FactRecord & { salience: number })[];
  const salience = new Map(rows.map((row) => [row.id, row.salience]));
  const items = withProvenance(
    graph,
    rows.map(({ salience: _, ...row }) => row),
    graphLimits.provenancePerItem,
  ).map((item) => ({ ...item, salience: salience.get(item.id) ?? 0 }));
  return page(items, n, at, noneSuppressed);
}
