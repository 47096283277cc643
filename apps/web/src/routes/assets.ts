import type { Hono } from 'hono';
import { appraisalElement, boardClient } from '../client/board-client.js';
import { boardStyle } from '../views/board-style.js';

const script = `(${boardClient.toString()})();\n`;
const elementScript = `(${appraisalElement.toString()})();\n`;

/** The board's health check, style sheet and scripts. */
export function assetRoutes(app: Hono, version: string): void {
  app.get('/healthz', (context) => context.json({ ok: true, service: 'mecha-web', version }));
  app.get('/assets/board.css', (context) => {
    context.header('content-type', 'text/css; charset=utf-8');
    context.header('cache-control', 'no-cache');
    return context.body(boardStyle);
  });
  app.get('/assets/board.js', (context) => {
    context.header('content-type', 'text/javascript; charset=utf-8');
    context.header('cache-control', 'no-cache');
    return context.body(script);
  });
  app.get('/assets/mecha-appraisal.js', (context) => {
    context.header('content-type', 'text/javascript; charset=utf-8');
    context.header('cache-control', 'no-cache');
    // A harness's own chat page (another origin) may include this one script.
    context.header('cross-origin-resource-policy', 'cross-origin');
    context.header('access-control-allow-origin', '*');
    return context.body(elementScript);
  });
}
