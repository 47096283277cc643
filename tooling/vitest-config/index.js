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
        testTimeout: 30_000,
      },
    }),
    overrides,
  );
}
