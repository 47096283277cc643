/**
 * `@mecha/stores/testing`: tools to develop and measure against a home, kept off the main
 * entry a harness imports. `generateHome` writes a realistic, seeded home (the demo and the
 * benchmarks use it too); `recordValidator` is the compiled record check the stores read with,
 * for measuring it against zod.
 */
export type { GeneratedHome, GenerateHomeOptions } from './generate-home.js';
export { generateHome } from './generate-home.js';
export type { RecordValidator } from './record-validator.js';
export { recordValidator } from './record-validator.js';
