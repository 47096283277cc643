export type { CliIo } from './main.js';
export { main } from './main.js';
export { cliVersion } from './version.js';
