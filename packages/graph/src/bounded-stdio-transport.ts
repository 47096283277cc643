import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import { MechaError } from '@mecha/errors';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How much of an oversized line is kept to find its request id and method. */
const kept = 4_096;

/**
 * The JSON-RPC id of a request cut for being too long, found in what was kept of its head and
 * tail (the SDK's client writes `id` last). Only a plain number or a short string is trusted.
 */
function oversizedId(head: string, tail: string): number | string | undefined {
  for (const text of [tail, head]) {
    const match = /"id"\s*:\s*(-?\d{1,15}|"[^"\\]{1,200}")\s*[,}]/.exec(text);
    if (match?.[1] !== undefined) return JSON.parse(match[1]) as number | string;
  }
  return undefined;
}

/**
 * A stdio transport that bounds each message instead of its whole read buffer: a line longer
 * than `maxMessageBytes` is read to its newline and dropped, and the request it carried is
 * answered — a tools/call with a tool error (`isError`), anything else with a JSON-RPC error —
 * so a client is never left waiting and the connection keeps working. (The SDK's own stdio
 * transport closes the connection on overflow and never answers.) A line whose id cannot be
 * found closes the transport, and `onclose` lets the process exit.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private length = 0;
  private dropping: { bytes: number; head: string; tail: Buffer } | undefined;
  private started = false;
  private closed = false;

  constructor(
    private readonly maxMessageBytes: number,
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    let rest = chunk;
    while (rest.length > 0 && !this.closed) {
      const newline = rest.indexOf(10);
      const piece = newline === -1 ? rest : rest.subarray(0, newline);
      if (this.dropping !== undefined) {
        this.dropping.bytes += piece.length;
        this.dropping.tail = Buffer.concat([this.dropping.tail, piece]).subarray(-kept);
      } else if (this.length + piece.length > this.maxMessageBytes) {
        const head = Buffer.concat([...this.chunks, piece]);
        this.dropping = {
          bytes: head.length,
          head: head.subarray(0, kept).toString('utf8'),
          tail: head.subarray(-kept),
        };
        this.chunks = [];
        this.length = 0;
      } else {
        this.chunks.push(piece);
        this.length += piece.length;
      }
      if (newline === -1) break;
      this.endLine();
      rest = rest.subarray(newline + 1);
    }
  };

  private readonly onEnd = () => {
    void this.close();
  };

  private readonly onError = (error: Error) => {
    this.onerror?.(error);
  };

  private endLine(): void {
    if (this.dropping !== undefined) {
      const { bytes, head, tail } = this.dropping;
      this.dropping = undefined;
      this.refuse(bytes, head, tail.toString('utf8'));
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.length = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  private refuse(bytes: number, head: string, tail: string): void {
    const id = oversizedId(head, tail);
    const text = `the message is ${bytes} bytes, over the ${this.maxMessageBytes} byte limit of one stdio message, and was not read: nothing was written; send a smaller request (an episode body is at most 65,536 characters)`;
    this.onerror?.(new MechaError(text));
    if (id === undefined) {
      // Nobody can be answered, so the connection cannot be trusted to line up any more.
      void this.close();
      return;
    }
    const toolCall = [head, tail].some((text) => /"method"\s*:\s*"tools\/call"/.test(text));
    void this.send(
      toolCall
        ? { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: true } }
        : { jsonrpc: '2.0', id, error: { code: -32600, message: text } },
    );
  }

  async start(): Promise<void> {
    if (this.started) throw new MechaError('BoundedStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.dropping = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(message))) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}
