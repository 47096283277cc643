import { join } from 'node:path';
import { stripControl, stripControlDeep } from '@mecha/appraisal-core';
import type {
  AppraisalConfiguration,
  AppraisalLimits,
  Appraiser,
  AppraiserOptions,
  AppraiserStatus,
  ControlResult,
  RunReport,
  SharedLease,
} from '@mecha/gpu-appraiser';
import type { CommandContext } from '../cli-io.js';
import { failure } from '../command.js';
import { homePath } from '../home.js';

// What every `mecha appraiser` subcommand shares: opening the memory around one act, and the
// renderings. The package is loaded only when one of these commands runs.

/**
 * Opens the appraiser's memory in <home>/appraiser, runs `act` on it and closes it, whatever
 * happens. Bad input the appraiser refuses (`AppraiserInputError`, a memory written by a newer
 * mecha among them) is a failure with its message; anything else is thrown on.
 */
export async function withAppraiser(
  context: CommandContext,
  path: string,
  act: (appraiser: Appraiser) => number | Promise<number>,
  options: Pick<AppraiserOptions, 'embedder'> = {},
): Promise<number> {
  const { AppraiserInputError, openAppraiser } = await import('@mecha/gpu-appraiser');
  let appraiser: Appraiser | undefined;
  try {
    appraiser = openAppraiser({ directory: join(homePath(context), 'appraiser'), ...options });
    return await act(appraiser);
  } catch (error) {
    if (AppraiserInputError.isInstance(error)) return failure(context, path, error.message);
    throw error;
  } finally {
    appraiser?.close();
  }
}

export function print(
  context: CommandContext,
  asJson: boolean,
  value: unknown,
  lines: () => string[],
) {
  if (asJson) context.stdout(`${JSON.stringify(stripControlDeep(value), null, 2)}\n`);
  else {
    const text = lines().flatMap((line) => line.split('\n'));
    context.stdout(`${text.map((line) => stripControl(line)).join('\n')}\n`);
  }
}

export const onOff = (value: boolean) => (value ? 'on' : 'off');

/** The limits by their CLI names, in the order they are shown. */
export const limitOptions = [
  ['pages', 'pagesPerSequence', 'pages per sequence'],
  ['tokens', 'outputTokens', 'output tokens per call'],
  ['ticks', 'ticks', 'ticks (model calls) per run'],
  ['rows', 'sourceRows', 'source rows per run'],
  ['prompt-bytes', 'promptBytes', 'prompt bytes'],
  ['output-bytes', 'outputBytesPerCall', 'output bytes per call'],
  ['recall-floor', 'recallFloor', 'recall similarity floor'],
  ['recall-priority', 'recallPriority', 'recall priority'],
] as const satisfies readonly (readonly [string, keyof AppraisalLimits, string])[];

export function configurationLines(configuration: AppraisalConfiguration): string[] {
  const { flags, limits } = configuration;
  return [
    `configuration: writes ${onOff(flags.writes)}, recall ${onOff(flags.recall)}, background ${onOff(flags.background)}; policy ${configuration.policy}${configuration.imported ? '; imported (recall only: no new writes or generation)' : ''}`,
    `limits: ${limitOptions.map(([name, field]) => `${name} ${limits[field]}`).join(', ')}`,
  ];
}

/** A control as `--json` prints it: `{ state: 'pending' | 'refused', id, …, configuration }`. */
export function controlJson(result: ControlResult) {
  if (result._tag === 'Left') {
    const { id, problems, configuration } = result.left;
    return { state: 'refused' as const, id, problems, configuration };
  }
  return { state: 'pending' as const, ...result.right };
}

export function controlLines(result: ControlResult): string[] {
  if (result._tag === 'Left') {
    const refused = result.left;
    return [
      `appraisal control: refused (#${refused.id}); nothing changed`,
      ...refused.problems.map((problem) => `  ${problem.message}`),
      ...configurationLines(refused.configuration),
    ];
  }
  return [
    `appraisal control: pending (#${result.right.id}); applied at the next quiet boundary`,
    ...configurationLines(result.right.configuration),
  ];
}

export function statusLines(status: AppraiserStatus): string[] {
  const lines = [
    `appraisal: writes ${onOff(status.flags.writes)}, recall ${onOff(status.flags.recall)}, background ${onOff(status.flags.background)}; policy ${status.policy}${status.imported ? '; imported configuration (recall only)' : ''}`,
  ];
  if (status.hold.held || status.hold.waiting !== null) {
    lines.push(
      `scheduler hold: ${status.hold.held ? 'on' : 'off'}${status.hold.waiting === null ? '' : ` (process ${status.hold.waiting} waits at it)`}`,
    );
  }
  if (status.worker !== null) lines.push(`working: process ${status.worker}`);
  if (status.journal.recoveryDeferred) {
    lines.push('recovery: deferred until the working process ends');
  }
  for (const control of status.pending) {
    lines.push(
      `appraisal control: pending (#${control.id} ${control.kind} ${JSON.stringify(control.value)}; applied at the next quiet boundary)`,
    );
  }
  const queue = status.queue;
  lines.push(
    `queue: ${queue.pending} pending, ${queue.complete} complete, ${queue.refused} refused, ${queue.interrupted} interrupted${status.boundToPreviousProcessor > 0 ? `; ${status.boundToPreviousProcessor} bound to the previous processor` : ''}`,
    `memory: ${status.sources} sources, ${status.assessments.current} current assessments, ${status.assessments.superseded} superseded`,
    `processor: ${status.processor}`,
  );
  const journal = status.journal;
  if (
    journal.tornBytes > 0 ||
    journal.recoveredInterrupted + journal.recoveredApplied + journal.recoveredRefused > 0
  ) {
    lines.push(
      `recovery: ${journal.recoveredInterrupted} interrupted, ${journal.recoveredApplied} applied, ${journal.recoveredRefused} refused; torn journal tail ${journal.tornBytes} bytes`,
    );
  }
  return lines;
}

export function runLines(report: RunReport): string[] {
  const lines = [
    `run: ${report.state.replace(/_/g, ' ')} (${report.items.length} sources, ${report.modelCalls} model calls)${report.reason ? ` — ${report.reason}` : ''}`,
  ];
  for (const item of report.items) {
    lines.push(
      `  queue #${item.queueId} (source #${item.sourceId}): ${item.state}${item.reason ? ` — ${item.reason}` : ''}${item.assessmentId ? ` → assessment #${item.assessmentId}` : ''}`,
    );
  }
  return lines;
}

export function leaseLines(lease: SharedLease): string[] {
  return [
    `shared lease #${lease.leaseId}: revision ${lease.revision}, rendering policy ${lease.policy}; ${lease.context.references} references, ${lease.context.memoryBytes} bytes${lease.reproduced ? '' : ' (this build renders it differently now; shown as recorded)'}`,
    ...(lease.context.system === '' ? [] : [lease.context.system]),
    lease.context.text,
  ];
}
