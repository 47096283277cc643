import { libraryConfig } from '@mecha/tsup-config';
import { defineConfig } from 'tsup';

// Two entries: the main one a harness imports, and `testing`, the home generator and the
// compiled record validator for tests, demos and benchmarks. tsup puts what they share in one chunk.
export default defineConfig(libraryConfig({ entry: ['src/index.ts', 'src/testing.ts'] }));
