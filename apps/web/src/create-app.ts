import type { GraphOwnerSession } from '@mecha/distill';
import type { HomeReadout, MechaHome } from '@mecha/stores';
import { Hono } from 'hono';
import { assetRoutes } from './routes/assets.js';
import { boardRoutes } from './routes/board.js';
import { boardContext, layoutNote } from './routes/board-context.js';
import { charterRoutes } from './routes/charter.js';
import { corpusRoutes } from './routes/corpus.js';
import { draftsRoutes } from './routes/drafts.js';
import { honestyRoutes } from './routes/honesty.js';
import { questionsRoutes } from './routes/questions.js';
import { reviewRoutes } from './routes/review.js';
import { runsRoutes } from './routes/runs.js';
import { sessionRoutes } from './routes/session.js';
import { guard, securityHeaders } from './security/guard.js';

/** Everything the board's routes work with. */
export interface WebAppOptions {
  readonly version: string;
  readonly home: MechaHome;
  readonly readout: HomeReadout;
  /** The token every form carries; see `guard`. */
  readonly csrfToken: string;
  /** Host names allowed besides loopback ones (the `--host` given). */
  readonly allowedHosts?: readonly string[];
  /** When set, every request must present it (served off loopback). */
  readonly bearerToken?: string;
  /** The environment acts are taken in: a run's registration there makes them a run's. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Who the owner is, recorded on charter edits. */
  readonly owner: string;
  /** The owner's side of the graph (@mecha/distill's use-case), when a graph server is configured. */
  readonly graph?: GraphOwnerSession;
  /** Why there is no graph review, when there is none. */
  readonly graphMissing?: string;
  /** The moment readouts are taken (a fixed one reproduces a page); the clock by default. */
  readonly now?: () => Date;
  /** Aborted when the server shuts down: live streams end. */
  readonly closing?: AbortSignal;
}

/**
 * The board's HTTP app. Thin: every page reads through a package use-case (or the in-memory
 * readout built from them) and renders; every act is one owner operation of `@mecha/stores`.
 * One route module per page (`routes/`), sharing one way to draw a page and to answer an act.
 */
export function createApp(options: WebAppOptions): Hono {
  const app = new Hono();
  app.use('*', securityHeaders());
  app.use(
    '*',
    guard({
      allowedHosts: options.allowedHosts ?? [],
      csrfToken: options.csrfToken,
      ...(options.bearerToken === undefined ? {} : { bearerToken: options.bearerToken }),
    }),
  );
  const board = boardContext(options);
  assetRoutes(app, options.version);
  runsRoutes(app, board);
  sessionRoutes(app, board);
  boardRoutes(app, board);
  draftsRoutes(app, board);
  questionsRoutes(app, board);
  charterRoutes(app, board);
  corpusRoutes(app, board);
  honestyRoutes(app, board);
  reviewRoutes(app, board);

  app.notFound((context) =>
    board.render(
      context,
      { title: 'Not found', current: null, content: layoutNote('There is no such page.') },
      404,
    ),
  );
  app.onError((error, context) => {
    process.stderr.write(
      `mecha web: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return board.render(
      context,
      {
        title: 'Error',
        current: null,
        content: layoutNote(
          'Something failed inside the board (its log says what); reload the page to see what stands.',
        ),
      },
      500,
    );
  });
  return app;
}
