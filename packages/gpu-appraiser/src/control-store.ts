import { left, refusal, right } from '@mecha/errors';
import { lockHolder } from '@mecha/local-model';
import { type AppraisalLimits, validateAppraisalLimits } from './appraisal-limits.js';
import type { AppraiserCore } from './appraiser-core.js';
import { AppraiserInputError } from './appraiser-error.js';
import type {
  AppraisalConfiguration,
  ControlRecord,
  ControlResult,
  FlagSwitches,
} from './appraiser-types.js';
import { type AppraisalPolicy, flagSet, flagsForOff, flagsForOn, flagsWith } from './controls.js';
import { controlSql } from './sql.js';

// Controls go through the store: each is recorded pending, cancels a running appraisal (here at
// once, in another process at its next token), and is applied in order at a quiet boundary.

/** The controls of a memory, and the scheduler hold. */
export interface ControlStore {
  setAppraisal(setting: 'on' | 'off' | FlagSwitches): ControlResult;
  setPolicy(policy: AppraisalPolicy): ControlResult;
  configuration(): AppraisalConfiguration;
  setLimits(limits: Partial<AppraisalLimits>): ControlResult;
  importConfiguration(previous: { readonly flags: number }): ControlResult;
  applyPending(): readonly ControlRecord[];
  controls(state: ControlRecord['state']): ControlRecord[];
  hold(): void;
  release(): void;
}

function readControls(core: AppraiserCore, state: ControlRecord['state']): ControlRecord[] {
  return (
    core.db.prepare(controlSql.byState).all(state) as {
      id: number;
      kind: ControlRecord['kind'];
      value: string;
      state: ControlRecord['state'];
      reason: string | null;
    }[]
  ).map((row) => ({
    id: row.id,
    kind: row.kind,
    value: JSON.parse(row.value) as unknown,
    state: row.state,
    ...(row.reason === null ? {} : { reason: row.reason }),
  }));
}

/** The applied configuration with every pending control folded in, in order. */
function projectedConfiguration(core: AppraiserCore): AppraisalConfiguration {
  const { settings } = core;
  let flagValue = settings.flags();
  let policyValue = settings.policy();
  let importedValue = settings.imported();
  let limitValue = settings.limits();
  for (const control of readControls(core, 'pending')) {
    if (control.kind === 'flags') {
      flagValue = Number(control.value);
      importedValue = false;
    } else if (control.kind === 'policy') policyValue = control.value as AppraisalPolicy;
    else if (control.kind === 'limits')
      limitValue = { ...limitValue, ...(control.value as Partial<AppraisalLimits>) };
    else {
      flagValue = Number(control.value);
      importedValue = true;
    }
  }
  return {
    flags: flagSet(flagValue),
    policy: policyValue,
    imported: importedValue,
    limits: limitValue,
  };
}

/** Applies pending controls at a quiet boundary: no run working on this memory anywhere. */
function applyPending(core: AppraiserCore): readonly ControlRecord[] {
  const { db, settings } = core;
  if (!core.running.holdingLock && lockHolder(core.workLock) !== undefined) return [];
  const pending = readControls(core, 'pending');
  if (pending.length === 0) return [];
  db.transaction(() => {
    let version = settings.configVersion();
    for (const control of pending) {
      version += 1;
      if (control.kind === 'flags') {
        settings.put('flags', String(control.value));
        // An explicit appraisal control selects the current processor for new work.
        settings.put('imported', '0');
      } else if (control.kind === 'policy') settings.put('policy', String(control.value));
      else if (control.kind === 'limits')
        settings.put(
          'limits',
          JSON.stringify({ ...settings.limits(), ...(control.value as object) }),
        );
      else if (control.kind === 'import') {
        settings.put('flags', String(control.value));
        settings.put('imported', '1');
      }
      db.prepare(controlSql.markApplied).run(core.now(), version, control.id);
    }
    settings.put('config_version', String(version));
  }).immediate();
  return pending;
}

/** The controls of the memory in `core`. */
export function controlStore(core: AppraiserCore): ControlStore {
  const { db, running } = core;
  const pendingResult = (id: number): ControlResult =>
    right({ id, configuration: projectedConfiguration(core) });

  function recordControl(kind: ControlRecord['kind'], value: unknown): number {
    if (running.active) {
      running.activeReason = 'control';
      running.active.abort();
    }
    return db.prepare(controlSql.record).run(kind, JSON.stringify(value), core.now())
      .lastInsertRowid as number;
  }

  function latestFlags(): number {
    const row = db.prepare(controlSql.latestPendingFlags).get() as { value: string } | undefined;
    return row ? Number(JSON.parse(row.value)) : core.settings.flags();
  }

  return {
    setAppraisal(setting) {
      const value =
        setting === 'on'
          ? flagsForOn(latestFlags())
          : setting === 'off'
            ? flagsForOff()
            : flagsWith(latestFlags(), setting);
      return pendingResult(recordControl('flags', value));
    },
    setPolicy: (next) => pendingResult(recordControl('policy', next)),
    configuration: () => projectedConfiguration(core),
    setLimits(partial) {
      const problems = validateAppraisalLimits({
        ...projectedConfiguration(core).limits,
        ...partial,
      });
      if (problems.length > 0) {
        const message = problems.map((problem) => problem.message).join('; ');
        const id = db
          .prepare(controlSql.refuseLimits)
          .run(JSON.stringify(partial), message, core.now()).lastInsertRowid as number;
        return left({
          ...refusal('rejected', message),
          id,
          problems,
          configuration: projectedConfiguration(core),
        });
      }
      return pendingResult(recordControl('limits', partial));
    },
    importConfiguration(previous) {
      const value = previous.flags;
      if (!Number.isInteger(value) || value < 0 || value > 7) {
        throw new AppraiserInputError(
          `An imported configuration's flags are an integer from 0 to 7 (writes=1, recall=2, background=4), got ${value}.`,
        );
      }
      return pendingResult(recordControl('import', value));
    },
    applyPending: () => applyPending(core),
    controls: (state) => readControls(core, state),
    hold: () => core.settings.put('hold', '1'),
    release: () => core.settings.put('hold', '0'),
  };
}

/** The newest control id: a run cancels when a pending control newer than its start appears. */
export const newestControl = (core: AppraiserCore): number =>
  (core.db.prepare(controlSql.newestId).get() as { id: number | null }).id ?? 0;

/** Whether a control (not refused) was recorded after `id`. */
export const controlSince = (core: AppraiserCore, id: number): boolean =>
  core.db.prepare(controlSql.anySince).get(id) !== undefined;
