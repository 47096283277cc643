import type { CommandGroup } from '../../command.js';
import { audit } from './audit.js';
import { check } from './check.js';
import { claims } from './claims.js';
import { freeze } from './freeze.js';
import { grade } from './grade.js';
import { meta } from './meta.js';
import { prune } from './prune.js';
import { verify } from './verify.js';

/** `mecha verdicts`: @mecha/grader-verdicts' graders and guards, loaded only when named. */
export const verdictsGroup: CommandGroup = {
  name: 'verdicts',
  summary: 'honest graders: audit, meta bank, drift watch, grade, self-claims, prune',
  commands: [audit, meta, freeze, check, verify, grade, claims, prune],
};
