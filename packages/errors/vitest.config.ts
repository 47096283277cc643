import { packageConfig } from '@mecha/vitest-config';

// `typecheck` makes the same run type-check the `*.test-d.ts` files (expectTypeOf).
export default packageConfig({
  test: {
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
