import { libraryConfig } from '@mecha/tsup-config';
import { defineConfig } from 'tsup';

// Two entries: the main one, and `owner`, the subpath only apps import to mint an owner-edit
// capability. tsup splits what they share into one chunk, so both see the same set of minted
// capabilities.
export default defineConfig(libraryConfig({ entry: ['src/index.ts', 'src/owner.ts'] }));
