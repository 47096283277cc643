import { join } from 'node:path';
import { refuseMissingHome, withLock } from '@mecha/stores';
import { type ReflectResult, reflect } from '../reflect/reflect.js';
import { distill } from './distill.js';
import type { DistillOptions } from './distill-options.js';
import type { DistillResult } from './distill-report.js';

/**
 * What a nightly pass did: reflect's result beside distill's, or that another pass holds the
 * lock. `reflected` is absent only when the pass could not start (no home).
 */
export type NightlyResult =
  | (DistillResult & { readonly reflected?: ReflectResult })
  | { readonly state: 'busy'; readonly message: string };

/** The lock file two nightly passes share, in the home's folder. */
export const nightlyLockFile = 'nightly.lock';

/**
 * The nightly pass: reflect on the owner's corrections not yet reflected on (`reflect`), then
 * distill every finished session not yet in the ledger and check the text appraisals'
 * predictions into `appraisals/scores.jsonl` (both are `distill`), under the home's
 * nightly lock so two passes (a timer and a person, or two timers) never overlap. A pass that
 * finds the lock held returns `busy` at once (or after `lockTimeoutMs`) and does nothing.
 */
export async function nightly(
  options: DistillOptions & {
    readonly lockTimeoutMs?: number;
    /** The model's identity without loading it, for reflect (see `ReflectOptions`). */
    readonly modelIdentity?: () => Promise<string>;
  },
): Promise<NightlyResult> {
  const { lockTimeoutMs, modelIdentity, ...rest } = options;
  // The nightly lock would make the home's folder: a missing home is refused before it.
  const present = refuseMissingHome(options.home);
  if (present._tag === 'Left') {
    return { state: 'cannot_run', reason: 'no_home', message: present.left.message };
  }
  const pass = async () => {
    // A pass stopped by Ctrl-C in reflect goes on to no distillation: the abort reaches both.
    const reflected = await reflect({
      home: rest.home,
      model: rest.model,
      ...(rest.dryRun === undefined ? {} : { dryRun: rest.dryRun }),
      ...(rest.signal === undefined ? {} : { signal: rest.signal }),
      ...(rest.modelName === undefined ? {} : { modelName: rest.modelName }),
      ...(modelIdentity === undefined ? {} : { modelIdentity }),
      ...(rest.clock === undefined ? {} : { clock: rest.clock }),
    });
    return { ...(await distill(rest)), reflected };
  };
  const held = await withLock(join(options.home.path, nightlyLockFile), pass, {
    timeoutMs: lockTimeoutMs ?? 0,
  });
  if (held._tag === 'Right') return held.right;
  return {
    state: 'busy',
    message:
      held.left.kind === 'lock_timeout'
        ? `another nightly pass is running, so this one did nothing (${held.left.message})`
        : held.left.message,
  };
}

/**
 * What a harness's `session_end` hook calls: distill the one session that just closed (and
 * score what is due). Idempotent like every run: the ledger says what is done, so a hook fired
 * twice, or a nightly pass after it, costs one ledger read for that session.
 */
export function distillOnSessionEnd(
  options: Omit<DistillOptions, 'sessions' | 'limit'> & { readonly sessionId: string },
): Promise<DistillResult> {
  const { sessionId, ...rest } = options;
  return distill({ ...rest, sessions: [sessionId] });
}
