import { packageConfig } from '@mecha/vitest-config';

// One real PostgreSQL server for the run, so the store suites run against it and SQLite alike.
export default packageConfig({
  test: { globalSetup: ['src/__fixtures__/postgres-global-setup.ts'] },
});
