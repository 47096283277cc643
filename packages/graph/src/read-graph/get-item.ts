import type { JsonValue } from '../content-hash.js';
import { type FactStatus, factText, isDenied } from '../fact-rows.js';
import type { GraphDatabase } from '../graph-database.js';
import { GraphInputError } from '../graph-input-error.js';
import { graphLimits } from '../limits.js';
import { parseInput } from '../parse-input.js';
import { type GetInput, getSchema } from '../schemas.js';
import { type CorrectionRecord, correctionItem, correctionSelect } from './correction-record.js';
import { type EpisodeRecord, episodeItem, episodeSelect } from './episode-record.js';
import { type FactRecord, factSelect } from './fact-record.js';
import type { EpisodeDetail, FactDetail, FactItem } from './items.js';
import { withProvenance } from './provenance.js';

/** One fact or one episode with everything known about it. */
export function getItem(graph: GraphDatabase, input: GetInput): FactDetail | EpisodeDetail {
  const parsed = parseInput(getSchema, input, 'kg_get request');
  const byKey = parsed.source !== undefined || parsed.source_id !== undefined;
  const asked = [parsed.fact_id !== undefined, parsed.episode_id !== undefined, byKey].filter(
    Boolean,
  );
  if (
    asked.length !== 1 ||
    (byKey && (parsed.source === undefined || parsed.source_id === undefined))
  ) {
    throw new GraphInputError(
      'kg_get needs exactly one of: fact_id, episode_id, or source with source_id',
    );
  }
  if (parsed.fact_id !== undefined) return getFact(graph, parsed.fact_id);
  const row = graph
    .sql(
      `SELECT ${episodeSelect('e.body')}, e.meta AS meta FROM episodes e JOIN sources src ON src.source = e.source
       WHERE ${parsed.episode_id !== undefined ? 'e.id = ?' : 'e.source = ? AND e.source_id = ?'}`,
    )
    .get(
      ...(parsed.episode_id !== undefined
        ? [parsed.episode_id]
        : [parsed.source, parsed.source_id]),
    ) as (EpisodeRecord & { meta: string }) | undefined;
  if (row === undefined) {
    throw new GraphInputError(
      'no such episode: episode ids and (source, source_id) keys come from kg_episodes or kg_upsert',
    );
  }
  const { meta, ...record } = row;
  const facts = graph
    .sql(
      `SELECT f.id, f.kind, f.subject, f.predicate, f.object, f.status, s.via FROM support s
       JOIN facts f ON f.id = s.fact_id WHERE s.episode_id = ? ORDER BY f.id LIMIT ?`,
    )
    .all(row.id, graphLimits.factsPerEpisodeDetail) as {
    id: number;
    kind: FactItem['kind'];
    subject: string;
    predicate: string;
    object: string;
    status: FactStatus;
    via: 'extractor' | 'correction';
  }[];
  return {
    ...episodeItem(record),
    meta: JSON.parse(meta) as JsonValue,
    facts: facts.map((fact) => ({
      id: fact.id,
      text: factText(fact),
      status: fact.status,
      via: fact.via,
    })),
  };
}

function getFact(graph: GraphDatabase, id: number): FactDetail {
  const row = graph
    .sql(`SELECT ${factSelect}, f.fact_key AS fact_key FROM facts f WHERE f.id = ?`)
    .get(id) as (FactRecord & { fact_key: string }) | undefined;
  if (row === undefined) {
    throw new GraphInputError(
      `no fact with id ${id}: fact ids come from kg_search or kg_review_list`,
    );
  }
  const { fact_key, ...record } = row;
  const [item] = withProvenance(graph, [record], graphLimits.provenancePerDetail);
  const superseded = graph.sql('SELECT id FROM facts WHERE supersedes = ? ORDER BY id').all(id) as {
    id: number;
  }[];
  const corrections = graph
    .sql(
      `SELECT ${correctionSelect} FROM corrections c JOIN sources src ON src.source = c.source
       WHERE c.wrong_fact_id = ? OR c.replacement_fact_id = ? ORDER BY c.id LIMIT ?`,
    )
    .all(id, id, graphLimits.provenancePerDetail) as CorrectionRecord[];
  return {
    ...(item as FactItem),
    denied: isDenied(graph, { ...record, key: fact_key }),
    superseded_by: superseded.map((each) => each.id),
    corrections: corrections.map(correctionItem),
  };
}
