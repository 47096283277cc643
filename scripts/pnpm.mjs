// Finds pnpm without a global install: the version pinned in package.json, fetched by npx.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, dirname } from 'node:path';

const root = new URL('..', import.meta.url);
const { packageManager } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

/** The pinned `pnpm@x.y.z` spec from the root package.json. */
export const pnpmSpec = packageManager;

let cached;

/** Absolute path of the pinned pnpm's bin, fetched once through npx's cache. */
export function pnpmBin() {
  if (cached) return cached;
  const found = spawnSync('npx', ['-y', '--package', pnpmSpec, '-c', 'command -v pnpm'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const bin = found.stdout.trim();
  if (found.status !== 0 || bin === '') {
    throw new Error(
      `could not obtain ${pnpmSpec} through npx (exit ${found.status}); is the npm registry reachable?`,
    );
  }
  cached = bin;
  return bin;
}

/**
 * The environment pnpm runs with. Native addons (better-sqlite3) compile against the Node
 * headers npm points at; pnpm does not read npm's `nodedir`, so pass it on explicitly.
 */
export function pnpmEnv(extra = {}) {
  const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', ...extra };
  // turbo finds the package manager on PATH; the npx-fetched pnpm is not there by itself.
  env.PATH = `${dirname(pnpmBin())}${delimiter}${env.PATH ?? ''}`;
  if (!env.npm_config_nodedir) {
    const nodedir = spawnSync('npm', ['config', 'get', 'nodedir'], {
      encoding: 'utf8',
    }).stdout?.trim();
    if (nodedir && nodedir !== 'undefined' && nodedir !== 'null') env.npm_config_nodedir = nodedir;
  }
  return env;
}

/** Runs pnpm with inherited output; returns the exit status. */
export function runPnpm(args, options = {}) {
  const result = spawnSync(pnpmBin(), args, { stdio: 'inherit', env: pnpmEnv(), ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}
