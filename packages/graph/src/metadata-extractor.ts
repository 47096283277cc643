import type { JsonValue } from './content-hash.js';

/** A fact an extractor proposes: a triple. Entities are `(name, "is a", type)`. */
export interface CandidateFact {
  readonly kind: 'entity' | 'relation';
  readonly subject: string;
  readonly predicate: string;
  readonly object: string;
}

/** What an extractor sees of an episode (after validation and size checks). */
export interface ExtractorEpisode {
  readonly kind: string;
  readonly source: string;
  readonly source_id: string;
  readonly occurred_at: string;
  readonly body: string;
  readonly meta: { readonly [key: string]: JsonValue };
}

/**
 * The seam that turns an episode into candidate facts for the review queue. It runs inside the
 * upsert's write transaction, so it must be synchronous, deterministic and free of I/O; the store
 * cleans, bounds, de-duplicates and checks denials on whatever it returns.
 */
export interface Extractor {
  readonly name: string;
  extract(episode: ExtractorEpisode): readonly CandidateFact[];
}

function text(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function records(value: JsonValue | undefined): readonly { readonly [key: string]: JsonValue }[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is { readonly [key: string]: JsonValue } =>
      item !== null && typeof item === 'object' && !Array.isArray(item),
  );
}

/**
 * The default extractor: reads only what the episode's metadata names, never the prose.
 * `meta.entities: [{name, type?}]` gives `(name, "is a", type ?? "entity")`;
 * `meta.relations: [{subject, predicate, object}]` gives the triple. Malformed items are skipped.
 */
export const metadataExtractor: Extractor = {
  name: 'metadata',
  extract(episode) {
    const out: CandidateFact[] = [];
    for (const entity of records(episode.meta.entities)) {
      const name = text(entity.name);
      if (name === undefined) continue;
      out.push({
        kind: 'entity',
        subject: name,
        predicate: 'is a',
        object: text(entity.type) ?? 'entity',
      });
    }
    for (const relation of records(episode.meta.relations)) {
      const subject = text(relation.subject);
      const predicate = text(relation.predicate);
      const object = text(relation.object);
      if (subject === undefined || predicate === undefined || object === undefined) continue;
      out.push({ kind: 'relation', subject, predicate, object });
    }
    return out;
  },
};
