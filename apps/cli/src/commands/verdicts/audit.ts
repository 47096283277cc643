import { type Command, exitCodes } from '../../command.js';
import { flag } from '../../parse-command.js';
import { renderAudit } from './render.js';
import { json, verdictsModule } from './shared.js';

export const audit: Command = {
  path: 'verdicts audit',
  summary: "classify every grader's leakage rung and fail on a claim it cannot earn",
  help: [
    'Usage: mecha verdicts audit [--json]',
    '',
    "Reads each registered grader's declaration (intended rung, claimed verdict) and the shape",
    'of its kind, and fails when a grader claims CORRECT on a rung that cannot earn it or when',
    'its detected rung is worse than the declared one. L0 hidden reference, L1 self-reference,',
    'L2 escape hatch.',
    '',
    'Exit codes: 0 every grader holds, 1 one does not, 2 usage.',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  // Grading reads task folders and banks, never a mecha home.
  homeMayBeMissing: true,
  takesNoArguments: true,
  async run({ values, context }) {
    const { auditGraders, builtinGraders } = await verdictsModule();
    const report = auditGraders(Object.values(builtinGraders).map((entry) => entry.declaration));
    if (flag(values, 'json')) json(context, report);
    else context.stdout(`${renderAudit(report).join('\n')}\n`);
    return report.ok ? exitCodes.ok : exitCodes.failure;
  },
};
