// The package's own vitest config, run from the package directory, less the tests that scan
// source text rather than run it: under mutation the source holds Stryker's instrumentation
// (which reads `process.env`), so such a test fails on every mutant for a reason that is not
// the mutant's. Each excluded test is named with its reason in targets.mjs.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mergeConfig } from 'vitest/config';
import { targets } from './targets.mjs';

const target = targets.find((t) => t.name === process.env.MECHA_MUTATION_PACKAGE);
const { default: base } = await import(pathToFileURL(join(process.cwd(), 'vitest.config.ts')).href);

// Under `--grader mecha` (mecha.mjs), mecha-setup.mjs drives the mutant switch in each worker.
const mecha = process.env.MECHA_MUTATION_GRADER === 'mecha';

export default mergeConfig(base, {
  root: process.cwd(),
  test: {
    exclude: ['**/node_modules/**', ...Object.keys(target?.sourceScans ?? {})],
    ...(mecha
      ? { setupFiles: [fileURLToPath(new URL('./mecha-setup.mjs', import.meta.url))] }
      : {}),
  },
});
