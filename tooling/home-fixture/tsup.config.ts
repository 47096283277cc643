import { libraryConfig } from '@mecha/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(libraryConfig());
