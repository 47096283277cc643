/**
 * The port through which pruning reaches a knowledge graph. This package stands alone: it names
 * only the few operations and fields it uses, and the caller passes the graph in. A
 * `@mecha/graph` GraphStore satisfies MemoryGraph as it is; apps/cli wires `openGraphStore` and
 * `snapshotGraphFile` into GraphAccess.
 */

/** One page of a listing; `next_offset` is null on the last page. */
export interface MemoryGraphPage<T> {
  readonly items: readonly T[];
  readonly next_offset: number | null;
}

/** The fields of an episode that pruning reads. */
export interface MemoryGraphEpisode {
  readonly id: number;
  readonly source: string;
  readonly source_id: string;
  readonly version: number;
  readonly content_hash: string;
  readonly status: string;
}

/** Where a fact's support comes from: the episodes behind it (possibly only the first ones). */
export interface MemoryGraphProvenance {
  readonly support_count: number;
  readonly episodes: readonly { readonly episode_id: number }[];
}

/** The fields of a fact that pruning reads. */
export interface MemoryGraphFact {
  readonly id: number;
  readonly status: string;
  readonly subject: string;
  readonly predicate: string;
  readonly object: string;
  readonly provenance: MemoryGraphProvenance;
}

/** What a redaction took out, as far as pruning reports it. */
export interface MemoryGraphRedaction {
  /** Current facts closed because the redaction took their last support. */
  readonly facts_closed: number;
}

/** The episode the ablation self-test plants: its facts are exactly `meta.relations`. */
export interface PlantedEpisode {
  readonly kind: string;
  readonly source: string;
  readonly source_id: string;
  readonly occurred_at: string;
  readonly body: string;
  readonly meta: {
    readonly relations: readonly {
      readonly subject: string;
      readonly predicate: string;
      readonly object: string;
    }[];
  };
}

/** An open graph: the operations pruning calls, nothing else. */
export interface MemoryGraph {
  episodes(query: {
    include_redacted?: boolean;
    offset: number;
    limit: number;
  }): Promise<MemoryGraphPage<MemoryGraphEpisode>>;
  /** Facts (current ones unless status is 'all'), optionally about one subject matched whole. */
  search(query: {
    subject?: string;
    status?: 'all';
    offset: number;
    limit: number;
  }): Promise<MemoryGraphPage<MemoryGraphFact>>;
  /** One fact with all its provenance. */
  get(query: {
    fact_id: number;
  }): Promise<
    | { readonly type: 'fact'; readonly provenance: MemoryGraphProvenance }
    | { readonly type: 'episode' }
  >;
  /** Takes one episode out, closing the facts it alone supported. */
  redact(request: { source: string; source_id: string }): Promise<MemoryGraphRedaction>;
  upsert(episode: PlantedEpisode): Promise<{ readonly episode_id: number }>;
  close(): Promise<void>;
}

/** How pruning reaches graph files; passed in by the caller. */
export interface GraphAccess {
  /**
   * Opens the graph file at `path` (the real graph to apply a plan, and private copies to
   * measure on). An episode upserted through it must yield exactly the facts in its
   * `meta.relations` (with @mecha/graph: `openGraphStore({ path, extractor: metadataExtractor })`).
   */
  readonly openGraph: (path: string) => Promise<MemoryGraph>;
  /**
   * Writes a consistent copy of the live graph file `from` into the new file `to`, without
   * writing `from`; throws, creating nothing, when `from` cannot be copied as a graph (with
   * @mecha/graph: `snapshotGraphFile`).
   */
  readonly snapshotGraphFile: (from: string, to: string) => Promise<void>;
}
