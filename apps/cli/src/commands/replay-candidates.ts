import { readFileSync } from 'node:fs';
import { type PopulationOptions, replayCandidates } from '@mecha/appraisal-core';
import { homePorts } from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import { exitCodes, failure, usageError } from '../command.js';
import { openCommandHome } from '../home.js';
import { renderReplayCandidates } from '../render/replay-candidates.js';

/** Reads `--headroom FILE`: a JSON object from session id to a finite number. */
function readHeadroom(
  file: string,
): { ok: true; map: Map<string, number> } | { ok: false; message: string; usage: boolean } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return {
      ok: false,
      usage: false,
      message: `--headroom ${file} could not be read (${(error as Error).message})`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      ok: false,
      usage: true,
      message: `--headroom ${file} is not JSON: write {"SESSION": NUMBER, …}`,
    };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return {
      ok: false,
      usage: true,
      message: `--headroom ${file} must be one object: {"SESSION": NUMBER, …}`,
    };
  }
  const map = new Map<string, number>();
  for (const [session, value] of Object.entries(parsed)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return {
        ok: false,
        usage: true,
        message: `--headroom ${file}: the headroom of ${JSON.stringify(session)} must be a finite number`,
      };
    }
    map.set(session, value);
  }
  return { ok: true, map };
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
    if (!read.ok) {
      return read.usage
        ? usageError(context, path, read.message)
        : failure(context, path, read.message);
    }
    headroom = read.map;
  }
  const readout = await replayCandidates(homePorts(openCommandHome(context)), population, headroom);
  context.stdout(
    asJson ? `${JSON.stringify(readout, null, 2)}\n` : renderReplayCandidates(readout),
  );
  return readout.listed === 'unreadable' ? exitCodes.failure : exitCodes.ok;
}
