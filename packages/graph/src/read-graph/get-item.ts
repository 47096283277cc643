import type { JsonValue } from '../content-hash.js';
import { type FactStatus, factText, isDenied } from '../fact-rows.js';
import type { GraphBackend, GraphDatabase } from '../graph-database.js';
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
export function getItem(
  backend: GraphBackend,
  input: GetInput,
): Promise<FactDetail | EpisodeDetail> {
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
  const factId = parsed.fact_id;
  if (factId !== undefined) return backend.read((graph) => getFact(graph, factId));
  return backend.read((graph) => getEpisode(graph, parsed));
}

async function getEpisode(graph: GraphDatabase, parsed: GetInput): Promise<EpisodeDetail> {
  const row = await graph.get<EpisodeRecord & { meta: string }>(
    `SELECT ${episodeSelect(graph.dialect)}, e.meta AS meta FROM episodes e JOIN sources src ON src.source = e.source
     WHERE ${parsed.episode_id !== undefined ? 'e.id = ?' : 'e.source = ? AND e.source_id = ?'}`,
    ...(parsed.episode_id !== undefined
      ? [parsed.episode_id]
      : [parsed.source ?? '', parsed.source_id ?? '']),
  );
  if (row === undefined) {
    throw new GraphInputError(
      'no such episode: episode ids and (source, source_id) keys come from kg_episodes or kg_upsert',
    );
  }
  const { meta, ...record } = row;
  const facts = await graph.all<{
    id: number;
    kind: FactItem['kind'];
    subject: string;
    predicate: string;
    object: string;
    status: FactStatus;
    via: 'extractor' | 'correction';
  }>(
    `SELECT f.id, f.kind, f.subject, f.predicate, f.object, f.status, s.via FROM support s
     JOIN facts f ON f.id = s.fact_id WHERE s.episode_id = ? ORDER BY f.id LIMIT ?`,
    row.id,
    graphLimits.factsPerEpisodeDetail,
  );
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

async function getFact(graph: GraphDatabase, id: number): Promise<FactDetail> {
  const row = await graph.get<FactRecord & { fact_key: string }>(
    `SELECT ${factSelect}, f.fact_key AS fact_key FROM facts f WHERE f.id = ?`,
    id,
  );
  if (row === undefined) {
    throw new GraphInputError(
      `no fact with id ${id}: fact ids come from kg_search or kg_review_list`,
    );
  }
  const { fact_key, ...record } = row;
  const [item] = await withProvenance(graph, [record], graphLimits.provenancePerDetail);
  const superseded = await graph.all<{ id: number }>(
    'SELECT id FROM facts WHERE supersedes = ? ORDER BY id',
    id,
  );
  const corrections = await graph.all<CorrectionRecord>(
    `SELECT ${correctionSelect} FROM corrections c JOIN sources src ON src.source = c.source
     WHERE c.wrong_fact_id = ? OR c.replacement_fact_id = ? ORDER BY c.id LIMIT ?`,
    id,
    id,
    graphLimits.provenancePerDetail,
  );
  return {
    ...(item as FactItem),
    denied: await isDenied(graph, { ...record, key: fact_key }),
    superseded_by: superseded.map((each) => each.id),
    corrections: corrections.map(correctionItem),
  };
}
