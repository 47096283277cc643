import { renderDrift } from './render.js';
import { bankCommand, bankOption, json, verdictsModule } from './shared.js';

export const check = bankCommand({
  path: 'verdicts check',
  summary: 're-grade the frozen bank twice and report drift',
  help: [
    'Usage: mecha verdicts check [--bank DIR] [--json]',
    '',
    'Verifies the seal of <bank>/frozen.json (and its HMAC when MECHA_VERDICTS_SEAL_KEY is',
    'set), then re-grades every frozen case twice and compares verdicts and grader hashes.',
    '',
    'Options:',
    bankOption,
    '  --json          the report as JSON',
    '',
    'Exit codes: 0 no drift; 3 a verdict flipped (behavioural drift when the grader did not',
    'change); 4 a grader changed (re-freeze to re-vouch); 5 the seal is broken (an edited',
    'bank: nothing is trusted, nothing is graded); 1 nothing frozen; 2 usage.',
    '',
  ].join('\n'),
  async act({ context, bank, asJson }) {
    const { checkBank, bundledBankDir } = await verdictsModule();
    const report = await checkBank(bank ?? bundledBankDir(), {
      env: context.env,
    });
    if (asJson) json(context, report);
    else
      (report.code === 0 ? context.stdout : context.stderr)(`${renderDrift(report).join('\n')}\n`);
    return report.code;
  },
});
