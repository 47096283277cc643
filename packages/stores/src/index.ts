export type { HomeLocation } from './resolve-home.js';
export { resolveHome } from './resolve-home.js';
