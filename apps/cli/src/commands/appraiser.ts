import type { CommandGroup } from '../command.js';
import {
  holdCommand,
  importCommand,
  limits,
  policyCommand,
  setting,
  status,
} from './appraiser-controls.js';
import { leaseCommand, recall } from './appraiser-recall.js';
import { serve } from './appraiser-serve.js';
import { add, retry, run } from './appraiser-work.js';

// `mecha appraiser`: parse, call one @mecha/gpu-appraiser use-case, render. The appraiser's
// memory lives in <home>/appraiser; the package is loaded only when one of these commands runs.
// One file per family of subcommands; what they share is in appraiser-shared.ts.

/** `mecha appraiser`: @mecha/gpu-appraiser's use-cases, loaded only when one runs. */
export const appraiserGroup: CommandGroup = {
  name: 'appraiser',
  summary: 'appraise external reports with the local model; recall them',
  commands: [
    setting('appraiser on', 'turn appraisal on (pending until a quiet boundary)', 'on'),
    setting('appraiser off', 'turn appraisal off (pending until a quiet boundary)', 'off'),
    status,
    limits,
    policyCommand(
      'pause',
      'paused',
      'pause appraisal admission (pending until a quiet boundary)',
      'Sets the policy to paused: no appraisal run is admitted until `mecha appraiser resume`.',
    ),
    policyCommand(
      'stop',
      'stopped',
      'stop appraisal admission (pending until a quiet boundary)',
      'Sets the policy to stopped: no appraisal run is admitted until `mecha appraiser resume`.',
    ),
    policyCommand(
      'resume',
      'run',
      'admit appraisal runs again after pause or stop',
      'Sets the policy back to run: appraisal runs are admitted again.',
    ),
    holdCommand('hold'),
    holdCommand('release'),
    importCommand,
    add,
    run,
    serve,
    retry,
    recall,
    leaseCommand,
  ],
};
