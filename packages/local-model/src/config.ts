import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { ModelConfigError } from './model-config-error.js';

/** The resolved model path, or why there is none. */
export type ModelPathResult =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly error: ModelConfigError };

/** Where the config file is and whose home `~` means; both default to the current user's. */
export interface ModelPathOptions {
  /** The config file the table came from; relative model paths resolve against its folder. Defaults to `~/.mecha/config.toml`. */
  readonly configFile?: string;
  /** The folder `~` stands for. Defaults to `os.homedir()`. */
  readonly homeDir?: string;
}

/** The path as the user would write it: the home folder shown as `~`. */
function shown(path: string, home: string): string {
  if (path === home) return '~';
  return path.startsWith(home + sep) ? `~${path.slice(home.length)}` : path;
}

/**
 * Resolves `[model] path` from the parsed `[model]` table of `config.toml` (pass the table,
 * or `undefined` when the file has none) to an absolute path of an existing file.
 *
 * `~` and `~/…` expand to the home folder; a relative path resolves against the config file's
 * folder (`~/.mecha`). A missing table or key, a value that is not a non-empty string, a path
 * that does not exist and one that is a folder come back as a `ModelConfigError` value that
 * names the key and the config file; nothing throws.
 */
export async function resolveModelPath(
  model: unknown,
  options: ModelPathOptions = {},
): Promise<ModelPathResult> {
  const home = options.homeDir ?? homedir();
  const configFile = options.configFile ?? join(home, '.mecha', 'config.toml');
  const display = shown(configFile, home);
  const fail = (problem: ModelConfigError['problem'], path?: string, cause?: unknown) => ({
    ok: false as const,
    error: new ModelConfigError(
      problem,
      display,
      path,
      cause === undefined ? undefined : { cause },
    ),
  });

  if (model === undefined || model === null) return fail('missing');
  if (typeof model !== 'object' || Array.isArray(model)) return fail('invalid');
  const value = (model as Record<string, unknown>).path;
  if (value === undefined) return fail('missing');
  if (typeof value !== 'string' || value.trim() === '') return fail('invalid');

  const raw = value.trim();
  const expanded =
    raw === '~'
      ? home
      : raw.startsWith('~/') || raw.startsWith(`~${sep}`)
        ? join(home, raw.slice(2))
        : raw;
  const path = isAbsolute(expanded) ? resolve(expanded) : resolve(dirname(configFile), expanded);

  try {
    const info = await stat(path);
    if (!info.isFile()) return fail('not_a_file', path);
  } catch (cause) {
    return fail('not_found', path, cause);
  }
  return { ok: true, path };
}
