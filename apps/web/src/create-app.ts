import { Hono } from 'hono';

/**
 * The local web board's HTTP app. Routes are thin: each reads through a package use-case and
 * renders; for now it answers health checks so a launcher can tell the server is up.
 */
export function createApp(options: { readonly version: string }): Hono {
  const app = new Hono();
  app.get('/healthz', (context) =>
    context.json({ ok: true, service: 'mecha-web', version: options.version }),
  );
  return app;
}
