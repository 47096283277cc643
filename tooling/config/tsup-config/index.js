/**
 * The build every published package shares: ESM only, declarations and source maps.
 * Kept trivial on purpose so that a later move to another bundler stays cheap.
 * @param {import('tsup').Options} [overrides]
 * @returns {import('tsup').Options}
 */
export function libraryConfig(overrides = {}) {
  return {
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    ...overrides,
  };
}
