import type { VerifyReport } from '@mecha/grader-verdicts';
import { exitCodes } from '../../command.js';
import { renderAudit, renderDrift, renderMeta } from './render.js';
import { bankCommand, bankOption, json, verdictsModule } from './shared.js';

export const verify = bankCommand({
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
  async act({ context, bank, asJson }) {
    const { verifyGraders, formatExpectation } = await verdictsModule();
    const report: VerifyReport = await verifyGraders({
      env: context.env,
      ...(bank === undefined ? {} : { bankDir: bank }),
    });
    if (asJson) json(context, report);
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
  },
});
