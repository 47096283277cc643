import { libraryConfig } from '@mecha/tsup-config';
import { defineConfig } from 'tsup';

// Two entries: the browser-safe root, and `node`, the only one that may import `node:` modules
// (the machine sensors). tsup puts what they share into one chunk.
export default defineConfig(libraryConfig({ entry: ['src/index.ts', 'src/node.ts'] }));
