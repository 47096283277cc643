import { lockHolder } from '@mecha/local-model';
import type { AppraiserCore } from './appraiser-core.js';
import type { AppraiserStatus } from './appraiser-types.js';
import { assessmentCounts } from './assessments.js';
import type { ControlStore } from './control-store.js';
import { flagSet } from './controls.js';
import { currentProcessor } from './processor.js';
import { queueCounts } from './queue.js';

/** Everything `status` reports: settings, hold, worker, controls, queue, memory and recovery. */
export function appraiserStatus(core: AppraiserCore, controls: ControlStore): AppraiserStatus {
  const { settings, recovery } = core;
  const queue = queueCounts(core);
  const waiting = settings.get('hold_waiting');
  return {
    flags: flagSet(settings.flags()),
    policy: settings.policy(),
    imported: settings.imported(),
    hold: {
      held: settings.get('hold') === '1',
      waiting: waiting === undefined ? null : (JSON.parse(waiting) as { pid: number }).pid,
    },
    worker: lockHolder(core.workLock)?.pid ?? null,
    configVersion: settings.configVersion(),
    limits: settings.limits(),
    pending: controls.controls('pending'),
    processor: currentProcessor,
    queue: queue.counts,
    boundToPreviousProcessor: queue.boundElsewhere,
    sources: queue.sources,
    assessments: assessmentCounts(core),
    journal: {
      tornBytes: recovery.read.tornBytes,
      unreadableLines: recovery.read.unreadableLines,
      recoveredInterrupted: recovery.recovered.interrupted,
      recoveredApplied: recovery.recovered.applied,
      recoveredRefused: recovery.recovered.refused,
      recoveryDeferred: recovery.deferred,
    },
  };
}
