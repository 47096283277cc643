import { openCore } from './appraiser-core.js';
import type { Appraiser, AppraiserOptions } from './appraiser-types.js';
import { readAssessments } from './assessments.js';
import { controlStore } from './control-store.js';
import { describeTask, queueState, retainSource, retry, withdrawSource } from './queue.js';
import { readLease, recall, shareContext } from './recall.js';
import { recoverAtOpen } from './recovery.js';
import { deviceOf, runAppraisal } from './run.js';
import { appraiserStatus } from './status.js';

export type {
  AppraisalConfiguration,
  Appraiser,
  AppraiserOptions,
  AppraiserStatus,
  ControlRecord,
  ControlResult,
  LeaseResult,
  QueueState,
  RecallRequest,
  RecallResult,
  RetainResult,
  RetainSourceInput,
  RetryItem,
  RunItem,
  RunOptions,
  RunReport,
  RunState,
  StoredAssessment,
  StoredRelationship,
} from './appraiser-types.js';
export { correctionContextLimit, sharedLeaseRevision } from './appraiser-types.js';

/**
 * Opens the appraiser's memory in `directory`, and before anything else can publish, recovers
 * from the journal: work that ended inside a call is recorded interrupted, a recorded complete
 * answer is re-checked and applied without a new model call, and a result of an unknown
 * processor is refused. Appraisal starts off: nothing is queued until `on` is applied.
 *
 * The concepts live in their own modules over one shared core: the queue (queue.ts), the
 * journalled work (work-item.ts, run.ts), recovery (recovery.ts), recall and shared leases
 * (recall.ts), and the controls with the scheduler hold (control-store.ts); every SQL
 * statement is in sql.ts.
 */
export function openAppraiser(options: AppraiserOptions): Appraiser {
  const core = openCore(options.directory, options.clock ?? (() => new Date()));
  const controls = controlStore(core);
  const applyPending = controls.applyPending;
  const device = deviceOf(options.model);
  recoverAtOpen(core);
  return {
    directory: core.directory,
    retainSource: (input) => retainSource(core, applyPending, input),
    describeTask: (taskId, descriptor) => describeTask(core, taskId, descriptor),
    setAppraisal: controls.setAppraisal,
    setPolicy: controls.setPolicy,
    configuration: controls.configuration,
    setLimits: controls.setLimits,
    importConfiguration: controls.importConfiguration,
    applyPending,
    hold: controls.hold,
    release: controls.release,
    status: () => appraiserStatus(core, controls),
    run: (runOptions) => runAppraisal(core, device, applyPending, runOptions),
    retry: (queueIds) => retry(core, applyPending, queueIds),
    assessments: (filter) => readAssessments(core, filter),
    queueState: (queueId) => queueState(core, queueId),
    recall: (request) => recall(core, request),
    shareContext: (request) => shareContext(core, request),
    readLease: (leaseId) => readLease(core, leaseId),
    withdrawSource: (sourceId) => withdrawSource(core, sourceId),
    close: () => core.db.close(),
  };
}
