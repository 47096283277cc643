import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';

const setupFastCheck = fileURLToPath(new URL('./setup-fast-check.js', import.meta.url));

/**
 * The test setup every package shares: tests beside the code, property tests at 1,000 runs,
 * and a JSON result file that `npm test` sums into its closing line.
 * @param {import('vitest/config').ViteUserConfig} [overrides]
 */
export function packageConfig(overrides = {}) {
  return mergeConfig(
    defineConfig({
      test: {
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        setupFiles: [setupFastCheck],
        reporters: ['default', ['json', { outputFile: '.vitest/results.json' }]],
        // A hang guard, not an assertion: npm test runs every package's suites at once on two
        // cores, and a property test over a real SQLite file can take tens of seconds there.
        testTimeout: 120_000,
        hookTimeout: 120_000,
      },
    }),
    overrides,
  );
}
