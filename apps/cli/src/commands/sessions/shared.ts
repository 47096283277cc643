import { type AppraisalPorts, kindsOnRecord, type PopulationOptions } from '@mecha/appraisal-core';
import { type Either, isLeft, left, refusal, right } from '@mecha/errors';
import { homePorts, withReadLog } from '@mecha/stores';
import type { CommandContext } from '../../cli-io.js';
import type { CommandInput } from '../../command.js';
import { openCommandHome } from '../../home.js';
import {
  didYouMean,
  flag,
  stringOption,
  type UsageRefusal,
  wholeNumber,
} from '../../parse-command.js';
import { type Progress, progressBar } from '../../progress.js';
import { withProgress } from '../../progress-ports.js';

// What the `mecha sessions` subcommands share: the population options and the home's ports.

const kindPattern = /^[a-z][a-z0-9_-]{0,31}$/;

export type Values = CommandInput['values'];

/** The population options common to appraise and health, or the usage error. */
export function populationOf(values: Values, now: Date): Either<UsageRefusal, PopulationOptions> {
  const daysText = stringOption(values, 'days');
  let days: number | undefined;
  if (daysText !== undefined) {
    const parsed = wholeNumber(daysText, '--days');
    if (isLeft(parsed)) return parsed;
    days = parsed.right;
  }
  const kind = stringOption(values, 'kind');
  if (kind !== undefined && !kindPattern.test(kind)) {
    return left(
      refusal(
        'bad_request',
        `--kind takes a recorded surface (web, task, tui, …), test or experiment, not ${JSON.stringify(kind)}`,
      ),
    );
  }
  return right({
    now,
    ...(days === undefined ? {} : { days }),
    ...(kind === undefined ? {} : { kind }),
    includeTests: flag(values, 'include-tests'),
  });
}

/**
 * A `--kind` no session of this home was recorded under is a usage error naming the kinds
 * there are, never a silent empty readout. An unlistable session store is not checked here;
 * the readout itself reports it.
 */
export async function unknownKind(
  context: CommandContext,
  options: PopulationOptions,
): Promise<string | undefined> {
  if (options.kind === undefined) return undefined;
  const kinds = await kindsOnRecord(homePorts(openCommandHome(context)).sessions);
  if (kinds.state === 'unreadable' || kinds.records.includes(options.kind)) return undefined;
  return `--kind ${JSON.stringify(options.kind)}: no session in this home was recorded under it${didYouMean(options.kind, kinds.records)}; the kinds here are ${kinds.records.join(', ')}`;
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The home's ports, logged (to name what could not be read) and, on a terminal, with a bar. */
export function scanPorts(context: CommandContext, label: string, population?: PopulationOptions) {
  const progress: Progress = progressBar({
    write: context.stderr,
    isTTY: context.stderrIsTTY,
    label,
  });
  const logged = withReadLog(homePorts(openCommandHome(context)));
  // Counting for a bar costs a second pass over the listing: only where a bar may be drawn.
  const ports: AppraisalPorts = context.stderrIsTTY
    ? withProgress(logged.ports, progress, population)
    : logged.ports;
  return { ports, progress, problems: logged.problems };
}
