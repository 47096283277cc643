export type { JsonValue } from './content-hash.js';
export { contentHash } from './content-hash.js';
