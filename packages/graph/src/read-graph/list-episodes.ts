import type { GraphDatabase } from '../graph-database.js';
import { graphLimits } from '../limits.js';
import { parseInput } from '../parse-input.js';
import { type EpisodesInput, episodesSchema } from '../schemas.js';
import { type EpisodeRecord, episodeItem, episodeSelect } from './episode-record.js';
import type { EpisodeItem } from './items.js';
import { bounds, noneSuppressed, type Page, page } from './page.js';

/** Episodes, newest first, with a body preview; redaction tombstones only when asked. */
export function listEpisodes(graph: GraphDatabase, input: EpisodesInput): Page<EpisodeItem> {
  const parsed = parseInput(episodesSchema, input, 'kg_episodes request');
  const at = bounds(parsed);
  const where = parsed.source === undefined ? '1 = 1' : 'e.source = ?';
  const parameters = parsed.source === undefined ? [] : [parsed.source];
  const counts = graph
    .sql(
      `SELECT count(*) AS everything, count(e.redacted_at) AS redacted FROM episodes e WHERE ${where}`,
    )
    .get(...parameters) as { everything: number; redacted: number };
  const includeRedacted = parsed.include_redacted === true;
  const rows = graph
    .sql(
      `SELECT ${episodeSelect(`substr(e.body, 1, ${graphLimits.bodyPreviewCharacters})`)}
       FROM episodes e JOIN sources src ON src.source = e.source
       WHERE ${where} ${includeRedacted ? '' : 'AND e.redacted_at IS NULL'}
       ORDER BY e.occurred_at DESC, e.id DESC LIMIT ? OFFSET ?`,
    )
    .all(...parameters, at.limit, at.offset) as EpisodeRecord[];
  return page(
    rows.map(episodeItem),
    includeRedacted ? counts.everything : counts.everything - counts.redacted,
    at,
    { ...noneSuppressed, redacted: includeRedacted ? 0 : counts.redacted },
  );
}
