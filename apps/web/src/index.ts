export type { WebAppOptions } from './create-app.js';
export { createApp } from './create-app.js';
export type { ReadoutChange, RunRow } from './readout/home-readout.js';
export { HomeReadout } from './readout/home-readout.js';
export { isLoopback } from './security/guard.js';
export type { RunningWebServer, StartWebServerOptions } from './start-web-server.js';
export { startWebServer } from './start-web-server.js';
