import type { VerifyReport } from '@mecha/grader-verdicts';
import { type Command, exitCodes } from '../../command.js';
import { flag } from '../../parse-command.js';
import { renderAudit, renderDrift, renderMeta } from './render.js';
import { bankDir, bankOption, guarded, json, verdictsModule } from './shared.js';

export const verify: Command = {
  path: 'verdicts verify',
  summary: 'the one gate: audit, meta and the drift check',
  help: [
    'Usage: mecha verdicts verify [--bank DIR] [--json]',
    '',
    'Runs the audit, then the drift check, whose first re-grade of each case is the meta check.',
    '',
    'Options:',
    bankOption,
    '  --json          the three reports as JSON',
    '',
    'Exit codes: 0 every guard holds, 1 one does not, 2 usage.',
    '',
  ].join('\n'),
  options: { bank: { type: 'string' }, json: { type: 'boolean' } },
  // Grading reads task folders and banks, never a mecha home.
  homeMayBeMissing: true,
  takesNoArguments: true,
  async run({ values, context }) {
    return guarded(context, this.path, async () => {
      const { verifyGraders, formatExpectation } = await verdictsModule();
      const dir = bankDir(context, values);
      const report: VerifyReport = await verifyGraders({
        env: context.env,
        ...(dir === undefined ? {} : { bankDir: dir }),
      });
      if (flag(values, 'json')) json(context, report);
      else {
        const lines = [
          ...renderAudit(report.audit),
          ...(report.drift.meta === null ? [] : renderMeta(report.drift.meta, formatExpectation)),
          ...renderDrift(report.drift),
          `verify: ${report.ok ? 'ok' : 'FAILED'}`,
        ];
        (report.ok ? context.stdout : context.stderr)(`${lines.join('\n')}\n`);
      }
      return report.ok ? exitCodes.ok : exitCodes.failure;
    });
  },
};
