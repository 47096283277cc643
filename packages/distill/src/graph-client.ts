import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import type { McpServerConfig } from '@mecha/stores';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import type { Episode } from './build-episode.js';
import { type GraphEnvironment, graphTransport } from './graph-transport.js';
import type { SentCorrection } from './ground-corrections.js';

/** What became of the corrections one call carried, as the graph counts them. */
export interface CorrectionCounts {
  readonly applied: number;
  readonly denied: number;
  readonly to_review: number;
  readonly duplicate: number;
}

const correctionCounts = z.object({
  applied: z.number().int().nonnegative(),
  denied: z.number().int().nonnegative(),
  to_review: z.number().int().nonnegative(),
  duplicate: z.number().int().nonnegative(),
});

const upsertReply = z.object({
  outcome: z.enum(['inserted', 'updated', 'unchanged']),
  episode_id: z.number().int().positive(),
  corrections: correctionCounts.nullable(),
  corrections_withheld: z.number().int().nonnegative(),
});

/** What `kg_upsert` reported for one episode. */
export type UpsertReply = z.infer<typeof upsertReply>;

/** Why a graph call has no answer: `connection_lost` when the server is gone. */
export type GraphRefusal = Refusal<'call_failed' | 'connection_lost'>;

/** A call's answer, or why there is none (the act shape: `Either<Refusal, T>`). */
export type GraphCall<T> = Either<GraphRefusal, T>;

/** A live MCP connection to the graph server, with the two tools distillation uses. */
export interface GraphConnection {
  /** Pushes one episode; a re-push of the same key is an update, never a duplicate. */
  upsert(episode: Episode): Promise<GraphCall<UpsertReply>>;
  /** Reports corrections from a session whose episode was skipped. */
  correct(input: {
    readonly source: string;
    readonly source_id: string;
    readonly occurred_at: string;
    readonly corrections: readonly SentCorrection[];
  }): Promise<GraphCall<CorrectionCounts>>;
  /** Calls any tool the server offers; its structured reply, or why there is none. */
  call(name: string, input: Record<string, unknown>): Promise<GraphCall<Record<string, unknown>>>;
  /** The tools the server offers (a distiller's, or an owner's too). */
  readonly tools: ReadonlySet<string>;
  /** Where the server is: its URL, or the command that started it. */
  readonly where: string;
  /** `stdio` for a server started here, `http` for one reached at a URL. */
  readonly kind: 'stdio' | 'http';
  /** Whether the server has gone away (exited, killed, closed its pipe, or cannot be reached). */
  readonly lost: boolean;
  /**
   * Whether an HTTP server answered that it no longer knows this session (restarted, or closed
   * it as idle): the call that met it was not processed, and a new connection may retry it.
   */
  readonly expired: boolean;
  /** Closes the connection: ends a started server process, or the HTTP session. */
  close(): Promise<void>;
}

/** How to reach the graph server. */
export interface ConnectOptions {
  /** How long one call may take before it counts as failed; 30 seconds by default. */
  readonly timeoutMs?: number;
  /** The client's version, as told to the server. */
  readonly clientVersion?: string;
  /** Arguments added after the configured ones (`--role owner` for the owner's acts). */
  readonly extraArgs?: readonly string[];
  /** Where a url server's token variable is read; `process.env` by default. */
  readonly env?: GraphEnvironment;
}

/**
 * Connects the MCP SDK's own client to the configured `[[mcp]]` server: started here over stdio
 * (`command`), or reached over Streamable HTTP (`url`, bearer token from `token_env`). The
 * server must offer `kg_upsert`; anything else is a failure with the reason, as a value.
 */
export async function connectGraph(
  server: McpServerConfig,
  options: ConnectOptions = {},
): Promise<Either<Refusal<'unreachable'>, GraphConnection>> {
  const timeout = options.timeoutMs ?? 30_000;
  const built = graphTransport(server, {
    ...(options.extraArgs === undefined ? {} : { extraArgs: options.extraArgs }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  if (built._tag === 'Left') return built;
  const graph = built.right;
  const client = new Client({ name: 'mecha-distill', version: options.clientVersion ?? '0.0.0' });
  let lost = false;
  let expired = false;
  client.onclose = () => {
    lost = true;
  };
  let tools: ReadonlySet<string>;
  try {
    await client.connect(graph.transport, { timeout });
    const listed = await client.listTools(undefined, { timeout });
    tools = new Set(listed.tools.map((tool) => tool.name));
    if (!tools.has('kg_upsert')) {
      await client.close();
      return left(
        refusal(
          'unreachable',
          `the [[mcp]] server '${server.name}' offers no kg_upsert tool: point it at mecha-graph-mcp`,
        ),
      );
    }
  } catch (error) {
    await client.close().catch(() => undefined);
    return left(refusal('unreachable', graph.explain(error, 'connect').reason));
  }

  async function call<T>(
    name: string,
    input: Record<string, unknown>,
    shape: z.ZodType<T>,
  ): Promise<GraphCall<T>> {
    if (lost) return left(refusal('connection_lost', graph.gone()));
    let result: Awaited<ReturnType<typeof client.callTool>>;
    try {
      result = await client.callTool({ name, arguments: input }, undefined, { timeout });
    } catch (error) {
      const explained = graph.explain(error, name);
      if (explained.lost) lost = true;
      if (explained.expired === true) expired = true;
      return left(refusal(lost ? 'connection_lost' : 'call_failed', explained.reason));
    }
    if (result.isError === true) {
      const content = Array.isArray(result.content) ? result.content : [];
      const text = content
        .map((item: unknown) =>
          typeof item === 'object' && item !== null && 'text' in item ? String(item.text) : '',
        )
        .join(' ')
        .trim();
      return left(
        refusal('call_failed', `${name} refused: ${text === '' ? 'no reason given' : text}`),
      );
    }
    const parsed = shape.safeParse(result.structuredContent);
    if (!parsed.success) {
      return left(refusal('call_failed', `${name} answered in a shape distill does not know`));
    }
    return right(parsed.data);
  }

  const connection: GraphConnection = {
    upsert: (episode) => call('kg_upsert', { ...episode }, upsertReply),
    correct: (input) =>
      call(
        'kg_correct',
        { ...input, corrections: input.corrections.map((correction) => ({ ...correction })) },
        correctionCounts,
      ),
    call: (name, input) => call(name, input, z.record(z.string(), z.unknown())),
    tools,
    where: graph.where,
    kind: graph.kind,
    get lost() {
      return lost;
    },
    get expired() {
      return expired;
    },
    close: async () => {
      if (graph.kind === 'http') {
        // Ends the server's session for this client, so a long-lived server does not keep it.
        await (graph.transport as { terminateSession?: () => Promise<void> })
          .terminateSession?.()
          .catch(() => undefined);
      }
      await client.close().catch(() => undefined);
    },
  };
  return right(connection);
}
