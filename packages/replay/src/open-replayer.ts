import { isAbsolute, resolve } from 'node:path';
import type { Replayer } from '@mecha/appraisal-core';
import { createLocalModel, resolveModelPath, resolveModelSettings } from '@mecha/local-model';
import { createLocalModelReplayer } from './local-model-replayer.js';
import { readReplayScript } from './read-replay-script.js';

/** A replayer ready to drive arms, with what closing it frees. */
export interface OpenReplayer extends Replayer {
  close(): Promise<void>;
}

/** Where a replayer spec is read from: the home (relative script paths) and its `[model]` table. */
export interface OpenReplayerOptions {
  readonly homePath: string;
  /** The `config.toml` the spec came from, named in errors and for relative model paths. */
  readonly configFile: string;
  /** The parsed `[model]` table, for `local-model`. */
  readonly model: unknown;
  /** The most tokens one local-model arm may generate. */
  readonly maxTokens?: number;
}

/**
 * Opens the replayer `[probe] replayer` names: `scripted:PATH` reads a JSON-lines script of arms
 * (a relative path is taken from the home), `local-model` loads the `[model]` GGUF on its first
 * arm. Returns why not, in one line, when it cannot.
 */
export async function openReplayer(
  spec: string,
  options: OpenReplayerOptions,
): Promise<
  | { readonly ok: true; readonly replayer: OpenReplayer }
  | { readonly ok: false; readonly message: string }
> {
  if (spec.startsWith('scripted:')) {
    const file = spec.slice('scripted:'.length);
    const path = isAbsolute(file) ? file : resolve(options.homePath, file);
    const read = await readReplayScript(path);
    if (!read.ok) return read;
    return { ok: true, replayer: Object.assign(read.replayer, { close: async () => {} }) };
  }
  if (spec === 'local-model') {
    const path = await resolveModelPath(options.model, { configFile: options.configFile });
    if (!path.ok) return { ok: false, message: path.error.message };
    const settings = resolveModelSettings(options.model);
    if (!settings.ok) {
      return {
        ok: false,
        message: settings.problems
          .map((problem) => `[model] ${problem.key} ${problem.message}`)
          .join('; '),
      };
    }
    const model = createLocalModel({ path: path.path, ...settings.settings });
    return {
      ok: true,
      replayer: createLocalModelReplayer(
        model,
        options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens },
      ),
    };
  }
  return {
    ok: false,
    message: `[probe] replayer ${JSON.stringify(spec)} is not "local-model" or "scripted:PATH"`,
  };
}
