import type { DeviceScheduler } from '@mecha/local-model';
import { type AppraiserCore, openCore } from './appraiser-core.js';
import type { Appraiser, AppraiserOptions } from './appraiser-types.js';
import { readAssessments } from './assessments.js';
import { controlStore } from './control-store.js';
import { describeTask, queueState, retainSource, retry, withdrawSource } from './queue.js';
import { readLease, recall, shareContext } from './recall.js';
import { recoverAtOpen } from './recovery.js';
import { deviceOf, runAppraisal } from './run.js';
import {
  requestRun,
  runRequest,
  type ServeControl,
  type ServedMemory,
  type ServeResult,
  serveLoop,
  servingProcess,
} from './serve.js';
import { cachedEmbedder, type Embedder } from './similarity.js';
import { appraiserStatus } from './status.js';

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
  return assemble(openCore(options.directory, options.clock ?? (() => new Date())), options);
}

/** The embedder recall uses: the one given, else the model's own embeddings, else none. */
function embedderOf(options: AppraiserOptions): Embedder | undefined {
  if (options.embedder) return cachedEmbedder(options.embedder);
  const model =
    options.model && 'at' in options.model ? options.model.at('foreground') : options.model;
  const embed = model?.embed?.bind(model);
  return embed ? cachedEmbedder({ embed }) : undefined;
}

function assemble(core: AppraiserCore, options: AppraiserOptions): Appraiser {
  const controls = controlStore(core);
  const applyPending = controls.applyPending;
  const device = deviceOf(options.model);
  const embedder = embedderOf(options);
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
    run: (runOptions) => runAppraisal(core, device, applyPending, options.reservable, runOptions),
    retry: (queueIds) => retry(core, applyPending, queueIds),
    assessments: (filter) => readAssessments(core, filter),
    queueState: (queueId) => queueState(core, queueId),
    recall: (request) => recall(core, embedder, request),
    shareContext: (request) => shareContext(core, embedder, request),
    readLease: (leaseId) => readLease(core, leaseId),
    serving: () => servingProcess(core),
    requestRun: (runOptions) => requestRun(core, runOptions?.background === true),
    runRequest: (id) => runRequest(core, id),
    withdrawSource: (sourceId) => withdrawSource(core, sourceId),
    close: () => core.db.close(),
  };
}

/**
 * Serves the memory in `directory` until `signal` aborts: this process holds the model (through
 * `model`, a device scheduler, normally on the machine's device lease) and answers every run
 * another process asks for with `requestRun`, and between them runs background appraisal on
 * ticks while the background flag and the policy allow it; with `others`, it ticks those
 * memories too, in turn, each under its own controls and limits. Refused when another live
 * process already serves the memory. Opening (each memory) recovers from the journal as
 * `openAppraiser` does.
 */
export async function serveAppraiser(
  options: Omit<AppraiserOptions, 'model'> & { readonly model: DeviceScheduler } & ServeControl,
): Promise<ServeResult> {
  const own = openServedMemory(options.directory, options);
  try {
    return await serveLoop({
      ...options,
      ...own,
      open: (directory) => openServedMemory(directory, options),
    });
  } finally {
    own.appraiser.close();
  }
}

/**
 * Opens the memory in `directory` as a server works on it: its core and the appraiser over it,
 * with `options`' model and clock (recovering from the journal as `openAppraiser` does). The
 * memory's database is closed again when the appraiser cannot be assembled.
 */
export function openServedMemory(directory: string, options: AppraiserOptions): ServedMemory {
  const core = openCore(directory, options.clock ?? (() => new Date()));
  try {
    return { core, appraiser: assemble(core, { ...options, directory }) };
  } catch (error) {
    core.db.close();
    throw error;
  }
}
