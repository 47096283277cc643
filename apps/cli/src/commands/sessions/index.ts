import type { CommandGroup } from '../../command.js';
import { appraise } from './appraise.js';
import { compareCommand } from './compare.js';
import { healthCommand } from './health.js';
import { listCommand } from './list.js';
import { successesCommand } from './successes.js';

/** `mecha sessions`: the free readers over the session store and everything linked to it. */
export const sessionsGroup: CommandGroup = {
  name: 'sessions',
  summary: 'readouts derived from your records, never stored',
  commands: [listCommand, appraise, compareCommand, healthCommand, successesCommand],
};
