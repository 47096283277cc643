import { stripControl } from '@mecha/appraisal-core';
import type { ClosedFromSurface, ReopenedFromSurface } from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import { exitCodes } from '../command.js';

const prefix = 'mecha tasks set';

/** Prints what stores' closure path did and returns the exit code; the CLI adds no logic. */
export function renderClosed(context: CommandContext, result: ClosedFromSurface): number {
  const say = (text: string) => context.stdout(`${stripControl(text)}\n`);
  let code: number = exitCodes.ok;
  say(result.closureLine);
  say(result.appraisalLine);
  if (result.followUp.state === 'staged') {
    say(`Staged one follow-up: ${result.followUp.taskId} "${result.followUp.title}" (inbox).`);
  } else if (result.followUp.state === 'not_staged') {
    context.stderr(`${prefix}: ${stripControl(result.followUp.message)}\n`);
    code = exitCodes.failure;
  }
  for (const failed of result.hookFailures) {
    context.stderr(`${prefix}: hooks/${failed.hook} failed: ${stripControl(failed.message)}\n`);
  }
  if (result.project !== null) {
    say(`That was the last open task of ${result.project.projectId}.`);
    say(result.project.line);
  }
  return code;
}

/** Prints what stores' reopen path did and returns the exit code. */
export function renderReopened(context: CommandContext, result: ReopenedFromSurface): number {
  context.stdout(`${stripControl(result.reopenLine)}\n`);
  if (result.creditLine !== null) context.stdout(`${result.creditLine}\n`);
  for (const failed of result.hookFailures) {
    context.stderr(`${prefix}: hooks/${failed.hook} failed: ${stripControl(failed.message)}\n`);
  }
  return exitCodes.ok;
}
