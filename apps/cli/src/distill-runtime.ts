import type { MechaHome } from '@mecha/stores';

/** What `mecha distill` runs on, loaded when it runs and never before. */
export interface DistillRuntime {
  readonly distill: typeof import('@mecha/distill');
  readonly openHome: (path: string) => MechaHome;
  readonly loadLocalModel: () => Promise<typeof import('@mecha/local-model')>;
}

/**
 * Loads `@mecha/distill` (and with it the MCP client) only when `mecha distill` runs. Both are
 * chunks of this bundle sharing its one copy of `@mecha/stores`, so a home opened here is the
 * home distill reads; node-llama-cpp and the MCP SDK stay real dependencies, loaded lazily.
 */
export async function loadDistillRuntime(): Promise<DistillRuntime> {
  const [distill, stores] = await Promise.all([import('@mecha/distill'), import('@mecha/stores')]);
  return {
    distill,
    openHome: (path) => stores.openHome(path),
    loadLocalModel: () => import('@mecha/local-model'),
  };
}
