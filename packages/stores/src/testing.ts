/**
 * `@mecha/stores/testing`: tools to develop and measure against a home, kept off the main
 * entry a harness imports. `recordChecks` are the checks each store reads its lines with (the
 * workspace's home generator writes through them, so it writes only what the stores read back)
 * and `sessionsEntry` how a manifest names the sessions folder; `recordValidator` is the
 * compiled record check the stores read with, for measuring it against zod.
 */
export { sessionsEntry } from './home-layout.js';
export type { RecordEntry } from './record-checks.js';
export { recordChecks } from './record-checks.js';
export type { RecordValidator } from './record-validator.js';
export { recordValidator } from './record-validator.js';
