import type { GraphBackend } from '../graph-database.js';
import { graphLimits } from '../limits.js';
import { parseInput } from '../parse-input.js';
import { type EpisodesInput, episodesSchema } from '../schemas.js';
import { type EpisodeRecord, episodeItem, episodeSelect, previewOf } from './episode-record.js';
import type { EpisodeItem } from './items.js';
import { bounds, noneSuppressed, type Page, page } from './page.js';

/** Episodes, newest first, with a body preview; redaction tombstones only when asked. */
export function listEpisodes(
  backend: GraphBackend,
  input: EpisodesInput,
): Promise<Page<EpisodeItem>> {
  const parsed = parseInput(episodesSchema, input, 'kg_episodes request');
  const at = bounds(parsed);
  const where = parsed.source === undefined ? '1 = 1' : 'e.source = ?';
  const parameters = parsed.source === undefined ? [] : [parsed.source];
  const preview = graphLimits.bodyPreviewCharacters;
  return backend.read(async (graph) => {
    const counts = (await graph.get<{ everything: number; redacted: number }>(
      `SELECT count(*) AS everything, count(e.redacted_at) AS redacted FROM episodes e WHERE ${where}`,
      ...parameters,
    )) ?? { everything: 0, redacted: 0 };
    const includeRedacted = parsed.include_redacted === true;
    const rows = await graph.all<EpisodeRecord>(
      `SELECT ${episodeSelect(graph.dialect, preview)}
       FROM episodes e JOIN sources src ON src.source = e.source
       WHERE ${where} ${includeRedacted ? '' : 'AND e.redacted_at IS NULL'}
       ORDER BY e.occurred_at DESC, e.id DESC LIMIT ? OFFSET ?`,
      ...parameters,
      at.limit,
      at.offset,
    );
    return page(
      rows.map((row) => episodeItem({ ...row, body: previewOf(row.body, preview) })),
      includeRedacted ? counts.everything : counts.everything - counts.redacted,
      at,
      { ...noneSuppressed, redacted: includeRedacted ? 0 : counts.redacted },
    );
  });
}
