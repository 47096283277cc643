import { isAbsolute, resolve } from 'node:path';
import type { Replayer } from '@mecha/appraisal-core';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
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
): Promise<Either<Refusal<'unreadable' | 'bad_request'>, OpenReplayer>> {
  if (spec.startsWith('scripted:')) {
    const file = spec.slice('scripted:'.length);
    const path = isAbsolute(file) ? file : resolve(options.homePath, file);
    const read = await readReplayScript(path);
    if (read._tag === 'Left') return read;
    return right(Object.assign(read.right, { close: async () => {} }));
  }
  if (spec === 'local-model') {
    const path = await resolveModelPath(options.model, { configFile: options.configFile });
    if (path.state === 'unreadable') return left(refusal('bad_request', path.reason));
    const settings = resolveModelSettings(options.model);
    if (settings.state === 'unreadable') return left(refusal('bad_request', settings.reason));
    const model = createLocalModel({ path: path.value, ...settings.value });
    return right(
      createLocalModelReplayer(
        model,
        options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens },
      ),
    );
  }
  return left(
    refusal(
      'bad_request',
      `[probe] replayer ${JSON.stringify(spec)} is not "local-model" or "scripted:PATH"`,
    ),
  );
}
