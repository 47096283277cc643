import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { GraphOwnerSession } from '@mecha/distill';
import { HomeReadout, type MechaHome, openHome } from '@mecha/stores';
import { createApp } from './create-app.js';
import { isLoopback, newToken } from './security/guard.js';

/** How to start the board. */
export interface StartWebServerOptions {
  /** The home, or its path. */
  readonly home: MechaHome | string;
  /** The address to bind: 127.0.0.1 unless given. Anything but loopback needs a bearer token. */
  readonly host?: string;
  /** The port; 0 picks a free one. 4380 unless given. */
  readonly port?: number;
  readonly version: string;
  /** The environment acts are taken in (a run's registration there makes them the run's). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Who the owner is, recorded on charter edits. */
  readonly owner: string;
  /** The bearer token to require off loopback; one is generated when absent. */
  readonly token?: string;
  /**
   * The owner's side of the graph for the review queue (@mecha/distill's `openGraphOwner`),
   * kept open while the board runs and closed with it.
   */
  readonly graph?: GraphOwnerSession;
  /** Why there is no graph server, shown on the review page. */
  readonly graphMissing?: string;
  /** The moment readouts are taken; the clock by default. */
  readonly now?: () => Date;
  /** Watch the home for changes (live updates); true by default. */
  readonly watch?: boolean;
}

/** A running board. */
export interface RunningWebServer {
  /** The address to open (with `?token=` when a token is required). */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly host: string;
  /** The bearer token in force, and whether it was generated here (print it once, then). */
  readonly token: { readonly value: string; readonly generated: boolean } | undefined;
  readonly readout: HomeReadout;
  /** How long deriving the readout at start took, in milliseconds. */
  readonly startMs: number;
  /** Stops watching, ends live streams and closes the server and the graph connection. */
  close(): Promise<void>;
}

const wildcard = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Starts the web board: derives the readout once, watches the home, and serves it. Bound to
 * 127.0.0.1 by default; off loopback every request needs the bearer token.
 */
export async function startWebServer(options: StartWebServerOptions): Promise<RunningWebServer> {
  const home = typeof options.home === 'string' ? openHome(options.home) : options.home;
  const host = options.host ?? '127.0.0.1';
  const loopback = isLoopback(host);
  const token = loopback
    ? undefined
    : options.token !== undefined && options.token !== ''
      ? { value: options.token, generated: false }
      : { value: newToken(), generated: true };
  const started = performance.now();
  const readout = new HomeReadout(home);
  await readout.start();
  // The stores the pages read beside the sessions (the readout reads them when first asked),
  // read now, so the first page opened does not pay for them.
  const ports = readout.ports();
  await Promise.all([
    ports.learning.textAppraisals(),
    ports.learning.counterfactuals(),
    ports.learning.comparisons(),
    ports.board.read(),
  ]);
  const startMs = performance.now() - started;
  const unwatch = options.watch === false ? () => undefined : readout.watch();
  const closing = new AbortController();
  const graph = options.graph;
  const app = createApp({
    version: options.version,
    home,
    readout,
    csrfToken: newToken(),
    // A wildcard bind answers to any name it is reached by; the bearer token guards it.
    allowedHosts: loopback ? [] : wildcard.has(host) ? ['*'] : [host],
    ...(token === undefined ? {} : { bearerToken: token.value }),
    env: options.env,
    owner: options.owner,
    ...(graph === undefined ? {} : { graph }),
    ...(options.graphMissing === undefined ? {} : { graphMissing: options.graphMissing }),
    ...(options.now === undefined ? {} : { now: options.now }),
    closing: closing.signal,
  });
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4380, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = wildcard.has(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const origin = `http://${shownHost}:${address.port}`;
  let closed: Promise<void> | undefined;
  return {
    url: token === undefined ? `${origin}/` : `${origin}/?token=${token.value}`,
    origin,
    port: address.port,
    host,
    token,
    readout,
    startMs,
    close() {
      closed ??= (async () => {
        unwatch();
        closing.abort();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        await graph?.close();
      })();
      return closed;
    },
  };
}
