import type { McpServerConfig } from '@mecha/stores';
import { connectGraph, type GraphConnection } from '../graph-client.js';
import { missingServerMessage } from '../graph-server.js';
import type { GraphEnvironment } from '../graph-transport.js';

/** The run's graph server: connected on the first push that needs it, closed at the end. */
export class GraphAccess {
  /** Calls made to the graph, counted by the callers. */
  calls = 0;
  private connection: GraphConnection | undefined;

  constructor(
    private readonly server: McpServerConfig | undefined,
    private readonly serverName: string,
    private readonly timeoutMs: number | undefined,
    private readonly env?: GraphEnvironment,
  ) {}

  /** The connection, or why there is none. */
  async connect(): Promise<GraphConnection | string> {
    if (this.connection !== undefined) return this.connection;
    if (this.server === undefined) return missingServerMessage(this.serverName);
    const connected = await connectGraph(this.server, {
      ...(this.timeoutMs === undefined ? {} : { timeoutMs: this.timeoutMs }),
      ...(this.env === undefined ? {} : { env: this.env }),
    });
    if (connected._tag === 'Left') return connected.left.message;
    this.connection = connected.right;
    return this.connection;
  }

  async close(): Promise<void> {
    await this.connection?.close();
  }
}
