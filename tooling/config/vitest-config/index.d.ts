import type { ViteUserConfig } from 'vitest/config';

/** The test setup every package shares; `overrides` are merged on top. */
export declare function packageConfig(overrides?: ViteUserConfig): ViteUserConfig;
