// Runs a package's runnable example as a user would: its TypeScript stripped (as a build would)
// and fed to a real `node` process started in the package's folder, so the package's own name
// resolves to its build. Shared by every package whose tests run its `examples/`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transformSync } from 'esbuild';

/**
 * Runs `examples/<name>` of the package at `packageRoot` with `env` added to the environment,
 * and returns what it printed. A non-zero exit throws, with the example's stderr.
 */
export function runExample(packageRoot, name, env = {}) {
  const source = readFileSync(join(packageRoot, 'examples', name), 'utf8');
  const { code } = transformSync(source, { loader: 'ts', format: 'esm', target: 'es2022' });
  return execFileSync(process.execPath, ['--input-type=module'], {
    cwd: packageRoot,
    input: code,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}
