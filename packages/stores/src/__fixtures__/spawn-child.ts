import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MechaError } from '@mecha/errors';
import { build } from 'tsup';

const source = fileURLToPath(new URL('./store-child-snapshot.mjs', import.meta.url));
let bundled: Promise<{ readonly blob: string; readonly folder: string }> | undefined;

/**
 * Bundles the writer script with the built package and its dependencies, and builds a V8
 * startup snapshot of it, once per test file: a writer process then starts with everything
 * already loaded, in a fraction of the time the module graph takes.
 */
export function bundleChild(): Promise<{ readonly blob: string; readonly folder: string }> {
  bundled ??= (async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mecha-stores-child-'));
    await build({
      entry: { child: source },
      format: ['cjs'],
      outDir: folder,
      outExtension: () => ({ js: '.cjs' }),
      noExternal: [/.*/],
      platform: 'node',
      target: 'node20',
      silent: true,
      dts: false,
      sourcemap: false,
      splitting: false,
      config: false,
    });
    const blob = join(folder, 'child.blob');
    const made = spawnSync(
      process.execPath,
      ['--snapshot-blob', blob, '--build-snapshot', join(folder, 'child.cjs')],
      {
        cwd: folder,
      },
    );
    if (made.status !== 0)
      throw new MechaError(`could not build the writer snapshot: ${made.stderr.toString()}`);
    return { blob, folder };
  })();
  return bundled;
}

const running = new Set<ChildProcess>();

/** Kills every writer still running and removes the bundle made by {@link bundleChild}. */
export async function removeBundle(): Promise<void> {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
  if (bundled === undefined) return;
  rmSync((await bundled).folder, { recursive: true, force: true });
  bundled = undefined;
}

/** Starts a writer process from the snapshot (see store-child.mjs for its modes). */
export async function spawnChild(args: readonly string[]): Promise<ChildProcess> {
  const { blob } = await bundleChild();
  return spawn(process.execPath, ['--snapshot-blob', blob, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Waits for a child to exit; rejects with its stderr when it failed on its own. */
export function exited(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal === null) reject(new Error(`child failed (${code}): ${stderr}`));
      else resolve({ code, signal });
    });
  });
}

/** Resolves once the child prints `word` (`ready`, `wrote`), or exits. */
export function saying(child: ChildProcess, word: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(word)) resolve();
    });
    child.on('exit', () => resolve());
  });
}
