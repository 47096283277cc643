import { exitCodes } from '../../command.js';
import { renderMeta } from './render.js';
import { bankCommand, bankOption, json, verdictsModule } from './shared.js';

export const meta = bankCommand({
  path: 'verdicts meta',
  summary: 'grade every fixture of the bank and fail loudly when one flips',
  help: [
    'Usage: mecha verdicts meta [--bank DIR] [--json]',
    '',
    'Grades each fixture of the bank (a vacuous test, a mute-button type fix, a wrong',
    'implementation, …) with its grader and compares the verdict with the one it must get.',
    '',
    'Options:',
    bankOption,
    '  --json          the results as JSON',
    '',
    'Exit codes: 0 every fixture holds, 1 one flipped (or the bank cannot be read), 2 usage.',
    '',
  ].join('\n'),
  async act({ context, bank, asJson }) {
    const { runMeta, bundledBankDir, formatExpectation } = await verdictsModule();
    const report = await runMeta(bank ?? bundledBankDir());
    if (asJson) json(context, report);
    else context.stdout(`${renderMeta(report, formatExpectation).join('\n')}\n`);
    return report.ok ? exitCodes.ok : exitCodes.failure;
  },
});
