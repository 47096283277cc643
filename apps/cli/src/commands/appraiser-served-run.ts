import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Appraiser, RunReport } from '@mecha/gpu-appraiser';
import type { CommandContext } from '../cli-io.js';
import { exitCodes, failure } from '../command.js';
import { homePath } from '../home.js';
import { print, runLines, withAppraiser } from './appraiser-shared.js';

/** How often a run asked of the serving process looks for its report. */
const pollMs = 50;
/** What the act answers when no process serves the home (never an exit code). */
const notServed = -1;

/** Waits for the report of run request `id`; a reason instead when there will be none. */
async function reportOf(
  appraiser: Appraiser,
  id: number,
  server: number,
  signal: AbortSignal,
): Promise<RunReport | string> {
  while (!signal.aborted) {
    const request = appraiser.runRequest(id);
    if (request?.state === 'done' && request.report) return request.report;
    if (appraiser.serving() === null && appraiser.runRequest(id)?.state !== 'done') {
      return `the serving process ${server} ended before answering run request #${id}`;
    }
    await sleep(pollMs);
  }
  return `stopped waiting; process ${server} goes on with run request #${id}`;
}

/**
 * `mecha appraiser run` while `mecha appraiser serve` serves the home: asks that process for the
 * run through the store and prints its report. Undefined when no process serves the home.
 */
export async function runOnServer(
  context: CommandContext,
  path: string,
  background: boolean,
  asJson: boolean,
): Promise<number | undefined> {
  // No server has ever served this home: the memory is not even opened (nor created).
  if (!existsSync(join(homePath(context), 'appraiser', 'serve.lock'))) return undefined;
  const code = await withAppraiser(context, path, async (appraiser) => {
    const server = appraiser.serving();
    if (server === null) return notServed;
    const id = appraiser.requestRun({ background });
    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once('SIGINT', interrupt);
    try {
      const report = await reportOf(appraiser, id, server, controller.signal);
      if (typeof report === 'string') return failure(context, path, report);
      print(context, asJson, report, () => [
        `served by process ${server} (run request #${id})`,
        ...runLines(report),
      ]);
      return report.state === 'done' ? exitCodes.ok : exitCodes.failure;
    } finally {
      process.removeListener('SIGINT', interrupt);
    }
  });
  return code === notServed ? undefined : code;
}
