import type { Hono } from 'hono';
import { appraisalElement, boardClient } from '../client/board-client.js';
import { boardStyle } from '../views/board-style.js';

const script = boardClient.map((part) => `(${part.toString()})();\n`).join('');
const elementScript = `(${appraisalElement.toString()})();\n`;

/** The board's icon: the logo's ring, plum and teal halves (the chip's two sides). */
export const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M16 3a13 13 0 0 0 0 26" fill="none" stroke="#8a3b5c" stroke-width="5"/><path d="M16 3a13 13 0 0 1 0 26" fill="none" stroke="#2f6f62" stroke-width="5"/></svg>`;

/** The board's health check, style sheet and scripts. */
export function assetRoutes(app: Hono, version: string): void {
  app.get('/healthz', (context) => context.json({ ok: true, service: 'mecha-web', version }));
  app.get('/assets/board.css', (context) => {
    context.header('content-type', 'text/css; charset=utf-8');
    context.header('cache-control', 'no-cache');
    return context.body(boardStyle);
  });
  app.get('/assets/favicon.svg', (context) => {
    context.header('content-type', 'image/svg+xml');
    context.header('cache-control', 'max-age=86400');
    return context.body(favicon);
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
