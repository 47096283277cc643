import { isLeft } from '@mecha/errors';
import { exitCodes } from '../../command.js';
import { renderMeta } from './render.js';
import { bankCommand, bankOption, json, verdictsModule } from './shared.js';

export const freeze = bankCommand({
  path: 'verdicts freeze',
  summary: 'seal the bank: golden verdicts, grader hashes, toolchain',
  help: [
    'Usage: mecha verdicts freeze [--bank DIR] [--json]',
    '',
    'Grades every case and, only if every fixture holds, writes <bank>/frozen.json: each',
    "case's verdict and content hash, the sha256 of every grader, the toolchain versions and a",
    'seal (sha256 of the canonical JSON, plus an HMAC when MECHA_VERDICTS_SEAL_KEY is set).',
    'Re-freezing after a grader change is a conscious act: it re-vouches for the grader.',
    '',
    'Options:',
    bankOption,
    '  --json          the frozen bank as JSON',
    '',
    'Exit codes: 0 frozen, 1 not frozen (a fixture does not hold), 2 usage.',
    '',
  ].join('\n'),
  async act({ context, bank, asJson }) {
    const { freezeBank, bundledBankDir, formatExpectation } = await verdictsModule();
    const result = await freezeBank(bank ?? bundledBankDir(), {
      env: context.env,
    });
    if (asJson) {
      // The JSON answer keeps its wire shape: `{ ok: true, path, frozen }` or `{ ok: false, meta }`.
      json(
        context,
        isLeft(result)
          ? { ok: false, meta: result.left.meta }
          : { ok: true, path: result.right.path, frozen: result.right.frozen },
      );
    } else if (!isLeft(result)) {
      const { path, frozen } = result.right;
      context.stdout(
        `frozen ${frozen.cases.length} cases into ${path}${frozen.seal.hmac === undefined ? '' : ' (HMAC-sealed)'}\n`,
      );
    } else {
      context.stderr(
        `${renderMeta(result.left.meta, formatExpectation).join('\n')}\nnot frozen: a fixture does not hold\n`,
      );
    }
    return isLeft(result) ? exitCodes.failure : exitCodes.ok;
  },
});
