import type { FactStatus } from '../fact-rows.js';
import type { GraphBackend } from '../graph-database.js';
import { graphLimits } from '../limits.js';
import { nameKey } from '../normalize-text.js';
import { parseInput } from '../parse-input.js';
import { type SearchInput, searchSchema } from '../schemas.js';
import { type FactRecord, factSelect } from './fact-record.js';
import type { FactItem } from './items.js';
import { bounds, closedStatuses, noneSuppressed, type Page, page } from './page.js';
import { withProvenance } from './provenance.js';
import { escapeLike, placeholders } from './sql-text.js';

/**
 * Facts about a subject and/or whose text contains the query, newest first; current (staged or
 * accepted) ones unless asked, with the closed ones that matched counted.
 */
export function searchFacts(backend: GraphBackend, input: SearchInput): Promise<Page<FactItem>> {
  const parsed = parseInput(searchSchema, input, 'kg_search request');
  const at = bounds(parsed);
  const status = parsed.status ?? 'current';
  const query = nameKey(parsed.query ?? '');
  const subject = parsed.subject === undefined ? '' : nameKey(parsed.subject);
  const clauses = ['1 = 1'];
  const parameters: string[] = [];
  let from = 'facts f';
  if (backend.dialect === 'sqlite' && Array.from(query).length >= 3) {
    // The trigram index answers a substring of three or more characters without a scan: a
    // quoted phrase of trigrams is the substring itself (quotes doubled; % and _ are literal).
    // CROSS JOIN makes the matches drive the query, so only they are read and sorted.
    from =
      '(SELECT rowid AS matched FROM facts_text WHERE facts_text MATCH ?) m CROSS JOIN facts f ON f.id = m.matched';
    parameters.push(`"${query.replace(/"/g, '""')}"`);
  }
  if (subject !== '') {
    clauses.push('f.subject_key = ?');
    parameters.push(subject);
  }
  if (query !== '' && from === 'facts f') {
    // On PostgreSQL, pg_trgm's index answers this LIKE; both sides are lower-cased already.
    clauses.push(`f.text_key LIKE ? ESCAPE '\\'`);
    parameters.push(`%${escapeLike(query)}%`);
  }
  const where = clauses.join(' AND ');
  return backend.read(async (graph) => {
    const byStatus = new Map(
      (
        await graph.all<{ status: FactStatus; n: number }>(
          `SELECT f.status AS status, count(*) AS n FROM ${from} WHERE ${where} GROUP BY f.status`,
          ...parameters,
        )
      ).map((row) => [row.status, row.n]),
    );
    const included: readonly FactStatus[] =
      status === 'current'
        ? ['staged', 'accepted']
        : status === 'all'
          ? ['staged', 'accepted', ...closedStatuses]
          : [status];
    const total = included.reduce((sum, each) => sum + (byStatus.get(each) ?? 0), 0);
    const suppressed = { ...noneSuppressed };
    for (const each of closedStatuses) {
      if (!included.includes(each)) suppressed[each] = byStatus.get(each) ?? 0;
    }
    const rows = await graph.all<FactRecord>(
      `SELECT ${factSelect} FROM ${from} WHERE ${where} AND f.status IN (${placeholders(included.length)})
       ORDER BY f.id DESC LIMIT ? OFFSET ?`,
      ...parameters,
      ...included,
      at.limit,
      at.offset,
    );
    return page(
      await withProvenance(graph, rows, graphLimits.provenancePerItem),
      total,
      at,
      suppressed,
    );
  });
}
