import { MechaError } from '@mecha/errors';
import type { HomeContext } from './jsonl-store.js';
import type { MechaHome } from './open-home.js';

export type { MechaHome } from './open-home.js';

// The context behind each home handle, kept off the public object so that nothing outside
// this package depends on its shape.
const contexts = new WeakMap<MechaHome, HomeContext>();

/** Records the context of a home handle `openHome` made. */
export function attachContext(home: MechaHome, context: HomeContext): void {
  contexts.set(home, context);
}

/** The context of a home handle; a handle not made by `openHome` is a programming error. */
export function contextOf(home: MechaHome): HomeContext {
  const context = contexts.get(home);
  if (context === undefined)
    throw new MechaError('not a mecha home handle: open one with openHome()');
  return context;
}
