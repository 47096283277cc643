import { packageConfig } from '@mecha/vitest-config';

// `vitest run --coverage` enforces the line threshold over the whole package. The barrel is
// left out: it only re-exports, and barrel.test.ts checks the built surface instead.
// `typecheck` makes the same run type-check the `*.test-d.ts` files (expectTypeOf).
export default packageConfig({
  test: {
    typecheck: {
      enabled: true,
      include: ['src/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts', 'src/**/*.test-d.ts', 'src/__fixtures__/**', 'src/index.ts'],
      reporter: ['text', 'json-summary'],
      thresholds: { lines: 95 },
    },
  },
});
