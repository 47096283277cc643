import { libraryConfig } from '@mecha/tsup-config';
import { defineConfig } from 'tsup';

// Two entries: the library, and the `mecha-graph-mcp` bin (declarations for the library only).
export default defineConfig(
  libraryConfig({ entry: ['src/index.ts', 'src/bin.ts'], dts: { entry: 'src/index.ts' } }),
);
