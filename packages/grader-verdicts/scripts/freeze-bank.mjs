// Re-freezes the bundled bank after a deliberate grader change: `pnpm run freeze-bank` (after build).
// Re-vouching is a conscious act; the drift check in `npm test` stays red until this is run.
import { bundledBankDir, formatExpectation, freezeBank } from '../dist/index.js';

const result = await freezeBank(bundledBankDir());
if (result._tag === 'Right') {
  console.log(`frozen ${result.right.frozen.cases.length} cases into ${result.right.path}`);
} else {
  for (const r of result.left.meta.results.filter((r) => !r.holds)) {
    console.error(
      `${r.id}: must be ${formatExpectation(r.expect)}, got ${r.verdict} (${r.reason})`,
    );
  }
  console.error('not frozen: a fixture does not hold');
  process.exit(1);
}
