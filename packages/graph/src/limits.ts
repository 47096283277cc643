/**
 * Every bound the graph enforces, in one place: input sizes it refuses past, page sizes it
 * clamps to, and how long a writer waits for another process's lock. Documented in docs/graph.md.
 */
export const graphLimits = {
  /** An episode body longer than this is refused (distill sends two to eight sentences). */
  bodyCharacters: 65_536,
  /** An episode's metadata, serialised as JSON, longer than this is refused. */
  metaCharacters: 65_536,
  /** Metadata nested deeper than this is refused. */
  metaDepth: 32,
  kindCharacters: 64,
  sourceCharacters: 200,
  sourceIdCharacters: 512,
  sourceRefCharacters: 2_048,
  /** A candidate's subject, predicate or object longer than this is ignored (and counted). */
  factPartCharacters: 300,
  /** Candidates past this many in one episode are ignored (and counted). */
  candidatesPerEpisode: 200,
  correctionsPerCall: 50,
  correctionTextCharacters: 1_000,
  queryCharacters: 300,
  /** Page size when a read names none. */
  pageSizeDefault: 20,
  /** A larger requested page is clamped to this and the reply says so. */
  pageSizeMax: 100,
  offsetMax: 1_000_000,
  /** Supporting episodes listed on one fact in a page (the full count is always given). */
  provenancePerItem: 10,
  /** Supporting episodes listed by kg_get on one fact. */
  provenancePerDetail: 100,
  /** Facts listed by kg_get on one episode. */
  factsPerEpisodeDetail: 200,
  /** Characters of body a listed episode carries; kg_get returns the whole body. */
  bodyPreviewCharacters: 500,
  /** How long a write waits for another process holding the database before failing. */
  busyTimeoutMs: 5_000,
  /**
   * Bytes of one stdio message (one JSON-RPC line). A longer message is read to its end and
   * dropped, and a tools/call gets a tool error back; the connection stays open.
   */
  stdioMessageBytes: 10 * 1024 * 1024,
  /** An HTTP session with no request for this long is closed (--session-idle overrides). */
  httpSessionIdleMs: 30 * 60 * 1000,
  /** Bytes of one HTTP request body under --http; a longer one is refused with 413. */
  httpBodyBytes: 10 * 1024 * 1024,
  /** Array elements plus object members in one tool call's arguments. */
  toolInputElements: 20_000,
} as const;
