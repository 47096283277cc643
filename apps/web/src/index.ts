export type { WebAppOptions } from './create-app.js';
export { createApp } from './create-app.js';
export { isLoopback } from './security/guard.js';
export type { RunningWebServer, StartWebServerOptions } from './start-web-server.js';
export { startWebServer } from './start-web-server.js';
