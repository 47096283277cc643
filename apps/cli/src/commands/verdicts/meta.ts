import { type Command, exitCodes } from '../../command.js';
import { flag } from '../../parse-command.js';
import { renderMeta } from './render.js';
import { bankDir, bankOption, guarded, json, verdictsModule } from './shared.js';

export const meta: Command = {
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
  options: { bank: { type: 'string' }, json: { type: 'boolean' } },
  // Grading reads task folders and banks, never a mecha home.
  homeMayBeMissing: true,
  takesNoArguments: true,
  async run({ values, context }) {
    return guarded(context, this.path, async () => {
      const { runMeta, bundledBankDir, formatExpectation } = await verdictsModule();
      const report = await runMeta(bankDir(context, values) ?? bundledBankDir());
      if (flag(values, 'json')) json(context, report);
      else context.stdout(`${renderMeta(report, formatExpectation).join('\n')}\n`);
      return report.ok ? exitCodes.ok : exitCodes.failure;
    });
  },
};
