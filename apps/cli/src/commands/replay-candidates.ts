import { readFileSync } from 'node:fs';
import { type PopulationOptions, replayCandidates } from '@mecha/appraisal-core';
import { type Either, isLeft, left, type Refusal, refusal, right } from '@mecha/errors';
import { homePorts } from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import { exitCodes, failure, usageError } from '../command.js';
import { openCommandHome } from '../home.js';
import { renderReplayCandidates } from '../render/replay-candidates.js';

/**
 * Reads `--headroom FILE`: a JSON object from session id to a finite number; or `unreadable`
 * (the file could not be read) or `bad_request` (it is not that object: a usage error).
 */
function readHeadroom(
  file: string,
): Either<Refusal<'unreadable' | 'bad_request'>, Map<string, number>> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return left(
      refusal('unreadable', `--headroom ${file} could not be read (${(error as Error).message})`),
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return left(
      refusal('bad_request', `--headroom ${file} is not JSON: write {"SESSION": NUMBER, …}`),
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return left(
      refusal('bad_request', `--headroom ${file} must be one object: {"SESSION": NUMBER, …}`),
    );
  }
  const map = new Map<string, number>();
  for (const [session, value] of Object.entries(parsed)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return left(
        refusal(
          'bad_request',
          `--headroom ${file}: the headroom of ${JSON.stringify(session)} must be a finite number`,
        ),
      );
    }
    map.set(session, value);
  }
  return right(map);
}

/**
 * `sessions appraise --replay-candidates [--headroom FILE]`: the window's sessions in the order
 * replay selection takes them, by the harness's headroom and then the charter rank.
 */
export async function showReplayCandidates(
  context: CommandContext,
  path: string,
  population: PopulationOptions,
  headroomFile: string | undefined,
  asJson: boolean,
): Promise<number> {
  let headroom: Map<string, number> | undefined;
  if (headroomFile !== undefined) {
    const read = readHeadroom(headroomFile);
    if (isLeft(read)) {
      return read.left.kind === 'bad_request'
        ? usageError(context, path, read.left.message)
        : failure(context, path, read.left.message);
    }
    headroom = read.right;
  }
  const readout = await replayCandidates(homePorts(openCommandHome(context)), population, headroom);
  context.stdout(
    asJson ? `${JSON.stringify(readout, null, 2)}\n` : renderReplayCandidates(readout),
  );
  return readout.listed === 'unreadable' ? exitCodes.failure : exitCodes.ok;
}
