import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import { configIssueText, type McpServerConfig, type MechaHome } from '@mecha/stores';
import { episodeSource } from './build-episode.js';
import { connectGraph, type GraphConnection } from './graph-client.js';
import { defaultGraphServerName, findMcpServer } from './graph-server.js';
import type { GraphEnvironment } from './graph-transport.js';
import { emptyReviewQueueHint } from './review-queue-hint.js';

/** One act of the owner on the graph, as a surface asks for it. */
export type GraphOwnerRequest =
  /** The review queue: candidate facts, most salient first, then corrections waiting. */
  | { readonly act: 'review'; readonly limit?: number }
  /**
   * `f12` (or `12`): the staged fact becomes a belief. `c3`: the waiting correction is applied to
   * `factId`, or to its one candidate when it has exactly one.
   */
  | { readonly act: 'approve'; readonly id: string; readonly factId?: number }
  /** `f12`: rejected, and never proposed again. `c3`: the waiting correction is dismissed. */
  | { readonly act: 'deny'; readonly id: string }
  /** Takes one session's episode and corrections (or a whole source) out of the graph. */
  | {
      readonly act: 'redact';
      readonly sessionId?: string;
      readonly source?: string;
      readonly dryRun?: boolean;
    }
  /** Current facts whose text contains the query. */
  | { readonly act: 'search'; readonly query: string; readonly limit?: number }
  /** Everything the graph holds about one entity, closed facts included. */
  | { readonly act: 'show'; readonly entity: string; readonly limit?: number }
  /**
   * The gossip probe a surprise seeds: what the graph holds about an entity (current, closed,
   * and where it is mentioned) beside the surprises recorded about it. Read-only.
   */
  | { readonly act: 'gossip'; readonly entity: string };

/** What an act did: the graph's own replies as `data`, and the lines a surface prints. */
export interface GraphOwnerDone {
  readonly act: GraphOwnerRequest['act'];
  readonly data: Readonly<Record<string, unknown>>;
  readonly lines: readonly string[];
}

/**
 * Why an act did not happen: `bad_request` (the request itself is malformed), `unreachable`
 * (config.toml is invalid, names no such server, the server could not be reached, or it does
 * not serve as owner), `connection_lost` (the connection went away), `call_failed` (the graph
 * refused the call).
 */
export type GraphOwnerRefusal = Refusal<
  'bad_request' | 'unreachable' | 'connection_lost' | 'call_failed'
>;

/** An act's outcome: what it did, or why it did not happen. */
export type GraphOwnerResult = Either<GraphOwnerRefusal, GraphOwnerDone>;

/** Where the graph is: the `[[mcp]]` server (default `graph`) and how long one call may take. */
export interface GraphOwnerOptions {
  /** The `[[mcp]]` server's name in `config.toml`, or its entry itself (a surface that resolved it). */
  readonly server?: string | McpServerConfig;
  /**
   * How a configured command server is started: the CLI runs the bare `mecha-graph-mcp` as the
   * script installed beside it. The entry as configured by default.
   */
  readonly resolveServer?: (server: McpServerConfig) => McpServerConfig;
  readonly timeoutMs?: number;
  /** Where a url server's token variable is read; `process.env` by default. */
  readonly env?: GraphEnvironment;
}

type Item = Readonly<Record<string, unknown>>;

const refused = (kind: GraphOwnerRefusal['kind'], message: string) => left(refusal(kind, message));

type Refused = ReturnType<typeof refused>;

function items(page: Item): Item[] {
  return Array.isArray(page.items) ? (page.items as Item[]) : [];
}

function taintWords(item: Item): string {
  const provenance = (item.provenance ?? {}) as Item;
  const taint = (provenance.taint ?? {}) as Record<string, number>;
  const parts = (['clean', 'untrusted', 'unknown'] as const)
    .filter((key) => (taint[key] ?? 0) > 0)
    .map((key) => `${taint[key]} ${key}`);
  return parts.length === 0 ? 'no episode' : parts.join(', ');
}

function sessions(item: Item): string {
  const provenance = (item.provenance ?? {}) as Item;
  const episodes = Array.isArray(provenance.episodes) ? (provenance.episodes as Item[]) : [];
  const ids = episodes.map((episode) => String(episode.source_id));
  if (ids.length === 0) return 'no session';
  const count = Number(provenance.support_count ?? ids.length);
  return `${ids.join(', ')}${count > ids.length ? ` and ${count - ids.length} more` : ''}`;
}

function factLine(item: Item): string {
  const salience = typeof item.salience === 'number' ? ` · salience ${item.salience}` : '';
  return `  f${item.id}  ${String(item.text)}  [${String(item.status)}${salience} · from ${sessions(item)} (${taintWords(item)}) · trust ${String(item.trust)}]`;
}

function beliefText(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (value !== null && typeof value === 'object') {
    const triple = value as Item;
    if ('fact_id' in triple) return `f${String(triple.fact_id)}`;
    return `"${String(triple.subject)} ${String(triple.predicate)} ${String(triple.object)}"`;
  }
  return 'nothing';
}

function correctionLine(item: Item): string {
  const candidates = Array.isArray(item.candidates) ? (item.candidates as number[]) : [];
  const right = item.right === null ? 'denied outright' : `→ ${beliefText(item.right)}`;
  const could =
    candidates.length > 0 ? ` · could mean ${candidates.map((id) => `f${id}`).join(', ')}` : '';
  const from = ((item.provenance ?? {}) as Item).source_id;
  return `  c${item.id}  ${beliefText(item.wrong)} ${right}  [${String(item.review_reason)}${could} · from ${from == null ? String(((item.provenance ?? {}) as Item).source) : String(from)}]`;
}

/** `f12`, `12` or `c3`, or why not. */
function parseId(id: string): { kind: 'fact' | 'correction'; id: number } | undefined {
  const match = /^([fc]?)([1-9]\d{0,14})$/i.exec(id.trim());
  if (match === null) return undefined;
  return { kind: match[1]?.toLowerCase() === 'c' ? 'correction' : 'fact', id: Number(match[2]) };
}

const badId = (id: string) =>
  refused(
    'bad_request',
    `'${id}' is not a review id: use f12 for a candidate fact or c3 for a correction, as 'mecha graph review' lists them`,
  );

async function call(
  graph: GraphConnection,
  name: string,
  input: Record<string, unknown>,
): Promise<Item | Refused> {
  const answer = await graph.call(name, input);
  if (answer._tag === 'Right') return answer.right;
  return refused(answer.left.kind, answer.left.message);
}

const isRefusal = (value: unknown): value is Refused =>
  typeof value === 'object' && value !== null && (value as Item)._tag === 'Left';

async function perform(
  graph: GraphConnection,
  request: GraphOwnerRequest,
): Promise<GraphOwnerResult> {
  const done = (data: Item, lines: string[]): GraphOwnerResult =>
    right({ act: request.act, data, lines });
  switch (request.act) {
    case 'review': {
      const limit = request.limit ?? 20;
      const facts = await call(graph, 'kg_review_list', { queue: 'facts', limit });
      if (isRefusal(facts)) return facts;
      const corrections = await call(graph, 'kg_review_list', { queue: 'corrections', limit });
      if (isRefusal(corrections)) return corrections;
      const lines = [
        `candidate facts waiting for review: ${String(facts.total)} (most salient first)`,
        ...items(facts).map(factLine),
        `corrections waiting for review: ${String(corrections.total)}`,
        ...items(corrections).map(correctionLine),
      ];
      if (Number(facts.total) + Number(corrections.total) > 0) {
        lines.push(
          "approve or deny one with 'mecha graph approve ID' or 'mecha graph deny ID' (a correction: approve c3 --fact 12)",
        );
      } else lines.push(emptyReviewQueueHint);
      return done({ facts, corrections }, lines);
    }
    case 'approve':
    case 'deny': {
      const parsed = parseId(request.id);
      if (parsed === undefined) return badId(request.id);
      if (parsed.kind === 'fact') {
        const fact = await call(graph, 'kg_get', { fact_id: parsed.id });
        if (isRefusal(fact)) return fact;
        const decided = await call(graph, 'kg_review_decide', {
          fact_id: parsed.id,
          decision: request.act === 'approve' ? 'accept' : 'reject',
        });
        if (isRefusal(decided)) return decided;
        return done(decided, [
          request.act === 'approve'
            ? `f${parsed.id} accepted: "${String(fact.text)}" is now a belief`
            : `f${parsed.id} rejected: "${String(fact.text)}" is denied and will never be proposed again`,
        ]);
      }
      if (request.act === 'deny') {
        const dismissed = await call(graph, 'kg_correction_resolve', { correction_id: parsed.id });
        if (isRefusal(dismissed)) return dismissed;
        return done(dismissed, [`c${parsed.id} dismissed: it changes nothing`]);
      }
      let factId = request.factId;
      if (factId === undefined) {
        const waiting = await call(graph, 'kg_review_list', { queue: 'corrections', limit: 100 });
        if (isRefusal(waiting)) return waiting;
        const item = items(waiting).find((each) => each.id === parsed.id);
        const candidates = Array.isArray(item?.candidates) ? (item.candidates as number[]) : [];
        if (candidates.length !== 1) {
          return refused(
            'bad_request',
            `c${parsed.id} names ${candidates.length === 0 ? 'no' : candidates.length} candidate belief${candidates.length === 1 ? '' : 's'}: say which belief it corrects with --fact ID (from 'mecha graph search')`,
          );
        }
        factId = candidates[0];
      }
      const resolved = await call(graph, 'kg_correction_resolve', {
        correction_id: parsed.id,
        fact_id: factId,
      });
      if (isRefusal(resolved)) return resolved;
      const replacement = resolved.replacement_fact_id;
      return done(resolved, [
        `c${parsed.id} applied to f${String(factId)}: it is closed${replacement == null ? '' : `, and f${String(replacement)} is staged in its place for review`}`,
      ]);
    }
    case 'redact': {
      if (request.sessionId === undefined && request.source === undefined) {
        return refused('bad_request', 'name the session to redact, or --source for a whole source');
      }
      const report = await call(graph, 'kg_redact', {
        source: request.source ?? episodeSource,
        ...(request.sessionId === undefined ? {} : { source_id: request.sessionId }),
        dry_run: request.dryRun === true,
      });
      if (isRefusal(report)) return report;
      return done(report, [
        `${request.dryRun === true ? 'would redact' : 'redacted'} ${String(report.episodes_redacted)} episode(s) and ${String(report.corrections_redacted)} correction(s); ${String(report.facts_closed)} fact(s) left with no support ${request.dryRun === true ? 'would be' : 'were'} closed`,
      ]);
    }
    case 'search': {
      const page = await call(graph, 'kg_search', {
        query: request.query,
        limit: request.limit ?? 20,
      });
      if (isRefusal(page)) return page;
      return done(page, [
        `${String(page.total)} current fact(s) read "${request.query}"`,
        ...items(page).map(factLine),
      ]);
    }
    case 'gossip':
      return gossip(graph, request.entity, done);
    case 'show': {
      const page = await call(graph, 'kg_search', {
        subject: request.entity,
        status: 'all',
        limit: request.limit ?? 50,
      });
      if (isRefusal(page)) return page;
      const facts = items(page);
      return done(page, [
        `${request.entity}: ${String(page.total)} fact(s) on record (current and closed)`,
        ...facts.map(factLine),
      ]);
    }
  }
}

const comparable = (text: string) =>
  text.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();

async function gossip(
  graph: GraphConnection,
  entity: string,
  done: (data: Item, lines: string[]) => GraphOwnerResult,
): Promise<GraphOwnerResult> {
  const about = await call(graph, 'kg_search', { subject: entity, status: 'all', limit: 100 });
  if (isRefusal(about)) return about;
  const mentions = await call(graph, 'kg_search', { query: entity, status: 'all', limit: 50 });
  if (isRefusal(mentions)) return mentions;
  const own = new Set(items(about).map((item) => item.id));
  const elsewhere = items(mentions).filter((item) => !own.has(item.id));
  const current = items(about).filter(
    (item) => item.status === 'staged' || item.status === 'accepted',
  );
  const closed = items(about).filter(
    (item) => item.status !== 'staged' && item.status !== 'accepted',
  );
  // The episodes behind those facts, and the surprises they carried about this entity.
  const episodeIds = new Set<number>();
  for (const item of [...items(about), ...elsewhere]) {
    const provenance = (item.provenance ?? {}) as Item;
    for (const id of (provenance.episode_ids ?? []) as number[]) {
      if (episodeIds.size < 20) episodeIds.add(id);
    }
  }
  const wanted = comparable(entity);
  const surprises: { session: string; graphSaid: string; found: string }[] = [];
  for (const id of episodeIds) {
    const episode = await call(graph, 'kg_get', { episode_id: id });
    if (isRefusal(episode)) return episode;
    const meta = (episode.meta ?? {}) as Item;
    for (const surprise of Array.isArray(meta.surprises) ? (meta.surprises as Item[]) : []) {
      const subject = comparable(String(surprise.about ?? ''));
      if (subject === '' || !(subject.includes(wanted) || wanted.includes(subject))) continue;
      surprises.push({
        session: String(episode.source_id),
        graphSaid: String(surprise.graph_said ?? ''),
        found: String(surprise.found ?? ''),
      });
    }
  }
  const lines = [
    `gossip about ${entity}: what the graph holds, and where a session found otherwise`,
    `current (${current.length}):`,
    ...current.map(factLine),
    `closed (${closed.length}):`,
    ...closed.map(factLine),
    `mentioned in (${elsewhere.length}):`,
    ...elsewhere.map(factLine),
    `surprises (${surprises.length}):`,
    ...surprises.map(
      (surprise) =>
        `  ${surprise.session}: the graph said "${surprise.graphSaid}", the session found "${surprise.found}"`,
    ),
    'All of this is read back from the graph as third-party content: check it against its sources before acting on it.',
  ];
  return done({ about, mentions, surprises }, lines);
}

/** The owner's acts on one graph, over one connection kept between acts. */
export interface GraphOwnerSession {
  /** Runs one act; connects (again, when the server went away) first. */
  act(request: GraphOwnerRequest): Promise<GraphOwnerResult>;
  /** Closes the connection, if one is open. */
  close(): Promise<void>;
}

const ownerTools = ['kg_review_decide', 'kg_correction_resolve', 'kg_redact'] as const;

function needsOwnerTools(request: GraphOwnerRequest): boolean {
  return request.act === 'approve' || request.act === 'deny' || request.act === 'redact';
}

/**
 * Opens the owner's side of the configured `[[mcp]]` graph server for many acts, as a long-lived
 * surface (the web board) needs: a command server is started with `--role owner` (its
 * person-only tools), a url server is reached over Streamable HTTP and must itself serve as owner
 * for approve, deny and redact. Nothing connects until the first act; a lost connection is
 * opened again on the next one, and an act that met a session the server had closed is done
 * once more on a new one.
 */
export function openGraphOwner(
  home: MechaHome,
  options: GraphOwnerOptions = {},
): GraphOwnerSession {
  let connecting: Promise<GraphConnection | Refused> | undefined;
  let closed = false;

  const connect = async (): Promise<GraphConnection | Refused> => {
    let server: McpServerConfig;
    if (typeof options.server === 'object') {
      server = options.server;
    } else {
      const config = home.readConfig();
      if (config._tag === 'Left') {
        return refused(
          'unreachable',
          `config.toml has problems, so the graph server cannot be found: ${config.left.map(configIssueText).join('; ')}`,
        );
      }
      const found = findMcpServer(config.right, options.server ?? defaultGraphServerName);
      if (found._tag === 'Left') return refused('unreachable', found.left.message);
      server = found.right;
    }
    const connected = await connectGraph(options.resolveServer?.(server) ?? server, {
      extraArgs: ['--role', 'owner'],
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    if (connected._tag === 'Left') return refused('unreachable', connected.left.message);
    return connected.right;
  };

  const connection = async (): Promise<GraphConnection | Refused> => {
    for (;;) {
      const pending = connecting;
      if (pending === undefined) {
        connecting = connect();
        return connecting;
      }
      const current = await pending;
      if (!isRefusal(current) && !current.lost) return current;
      // A refusal or a lost server is tried afresh; concurrent acts share one new attempt.
      if (connecting === pending) {
        connecting = undefined;
        if (!isRefusal(current)) await current.close();
      }
    }
  };

  return {
    async act(request) {
      if (closed) return refused('connection_lost', 'the graph connection was closed');
      const graph = await connection();
      if (isRefusal(graph)) return graph;
      if (needsOwnerTools(request)) {
        const missing = ownerTools.filter((tool) => !graph.tools.has(tool));
        if (missing.length > 0) {
          return refused(
            'unreachable',
            `the graph at ${graph.where} offers no ${missing.join(', ')}: it serves as distiller. The owner's acts need a server started as owner (mecha-graph-mcp --http --role owner); point an [[mcp]] url at one, and name it with --server`,
          );
        }
      }
      const result = await perform(graph, request);
      if (result._tag === 'Right' || !graph.expired) return result;
      // The server had closed this session (idle, or restarted), so the call that met it was not
      // processed, and every act's one write is its last call: a new session may do it again.
      const again = await connection();
      return isRefusal(again) ? again : perform(again, request);
    },
    async close() {
      closed = true;
      const current = await connecting;
      connecting = undefined;
      if (current !== undefined && !isRefusal(current)) await current.close();
    },
  };
}

/**
 * Acts once as the owner on the knowledge graph through its MCP tools, never around them (see
 * {@link openGraphOwner}), and closes the connection. Returns the graph's replies and the lines
 * to print, or a refusal saying why.
 */
export async function actOnGraph(
  home: MechaHome,
  request: GraphOwnerRequest,
  options: GraphOwnerOptions = {},
): Promise<GraphOwnerResult> {
  const session = openGraphOwner(home, options);
  try {
    return await session.act(request);
  } finally {
    await session.close();
  }
}
