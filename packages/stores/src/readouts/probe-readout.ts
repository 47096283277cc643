import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import {
  type AppraisalPorts,
  appraiseCorpus,
  type CorpusAppraisal,
  type CorpusOptions,
  probeCorpus,
  type Replayer,
} from '@mecha/appraisal-core';
import { refusal } from '@mecha/errors';
import * as E from 'fp-ts/lib/Either.js';
import type { OwnerActRefusal } from '../owner/owner-refusal.js';

/** Where a replay would run, and the homes its jail must not cover. */
export interface ReplayWorkspace {
  /** The directory asked for (`--workspace`), or the current directory. */
  readonly workspace: string;
  /** The mecha home. */
  readonly homePath: string;
  /** The user's home directory (`$HOME`), when known. */
  readonly userHome?: string;
}

function real(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}

function covers(outer: string, inner: string): boolean {
  const path = relative(outer, inner);
  return path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path);
}

/**
 * Checks the directory a replay's workspace jail would cover: it must be a directory, must not
 * be the user's home directory, and must not cover the mecha home (a jail over `~/.mecha` would
 * let a replayed agent touch the records it is being graded from). The checked, real path, or
 * the refusal in one line (kind `bad_request`).
 */
export function checkReplayWorkspace(where: ReplayWorkspace): E.Either<OwnerActRefusal, string> {
  const workspace = real(where.workspace);
  let directory = false;
  try {
    directory = statSync(workspace).isDirectory();
  } catch {
    directory = false;
  }
  if (!directory) {
    return E.left(refusal('bad_request', `the replay workspace ${workspace} is not a directory`));
  }
  if (where.userHome !== undefined && workspace === real(where.userHome)) {
    return E.left(
      refusal(
        'bad_request',
        `the replay workspace would be your home directory (${workspace}), and its jail would cover the mecha home: run this from a project directory or name one with --workspace`,
      ),
    );
  }
  const home = real(where.homePath);
  if (covers(workspace, home)) {
    return E.left(
      refusal(
        'bad_request',
        `the replay workspace ${workspace} covers the mecha home (${home}): run this from a project directory or name one with --workspace`,
      ),
    );
  }
  return E.right(workspace);
}

/** Options of {@link probeReadout}: the readout's population, the pass's ceiling and where it runs. */
export interface ProbeReadoutOptions extends CorpusOptions, ReplayWorkspace {
  readonly maxProbes: number;
  readonly signal?: AbortSignal;
  readonly progress?: (driven: number, ceiling: number) => void;
}

/**
 * `sessions appraise --probe`: checks the workspace first (a refusal spends nothing), then runs
 * the counterfactual probe through `replayer` and derives the corpus readout with its findings
 * filling `controllable`. Nothing is written; the findings live in this readout only.
 */
export async function probeReadout(
  ports: AppraisalPorts,
  replayer: Replayer,
  options: ProbeReadoutOptions,
): Promise<E.Either<OwnerActRefusal, CorpusAppraisal>> {
  const checked = checkReplayWorkspace(options);
  if (E.isLeft(checked)) return checked;
  const run = await probeCorpus(ports, replayer, {
    ...options,
    workspace: checked.right,
  });
  const result = await appraiseCorpus(ports, {
    ...options,
    probe: run.readout,
    resolved: run.resolved,
  });
  return E.right(result);
}
