import type { Options } from 'tsup';

/** The build every published package shares: ESM only, declarations and source maps. */
export declare function libraryConfig(overrides?: Options): Options;
