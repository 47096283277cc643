import type { ValueRead } from '@mecha/errors';

/** The `[model]` keys beyond `path` that say how the resident model is loaded. */
export interface ModelSettings {
  /** `[model] threads`: CPU threads for decoding. */
  readonly threads?: number;
  /** `[model] gpu_layers`: layers offloaded to the GPU, `"auto"` or `"max"`. */
  readonly gpuLayers?: number | 'auto' | 'max';
  /** `[model] context_size`: the context window in tokens. */
  readonly contextSize?: number;
}

/** One refused `[model]` key, named as the user wrote it. */
export interface ModelSettingProblem {
  readonly key: 'threads' | 'gpu_layers' | 'context_size';
  readonly message: string;
}

/**
 * The settings (`value`), or every problem with them at once: a `ValueRead` whose `unreadable`
 * side also lists the `problems` (the `reason` names each as `[model] key message`, joined by
 * `; `).
 */
export type ModelSettingsResult =
  | Extract<ValueRead<ModelSettings>, { readonly state: 'read' }>
  | (Extract<ValueRead<ModelSettings>, { readonly state: 'unreadable' }> & {
      readonly problems: readonly ModelSettingProblem[];
    });

function unreadableSettings(problems: readonly ModelSettingProblem[]): ModelSettingsResult {
  return {
    state: 'unreadable',
    reason: problems.map((problem) => `[model] ${problem.key} ${problem.message}`).join('; '),
    problems,
  };
}

const isWhole = (value: unknown, min: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min;

/**
 * Reads `threads`, `gpu_layers` and `context_size` from the parsed `[model]` table (other keys,
 * such as `path`, are left to their own readers). An absent key is absent, never a default:
 * `createLocalModel` fills in its own. Nothing throws; every bad key is named.
 */
export function resolveModelSettings(model: unknown): ModelSettingsResult {
  if (model === undefined || model === null) return { state: 'read', value: {} };
  if (typeof model !== 'object' || Array.isArray(model)) {
    return unreadableSettings([{ key: 'threads', message: '[model] must be a table' }]);
  }
  const table = model as Record<string, unknown>;
  const problems: ModelSettingProblem[] = [];
  const settings: { threads?: number; gpuLayers?: number | 'auto' | 'max'; contextSize?: number } =
    {};
  if (table.threads !== undefined) {
    if (isWhole(table.threads, 1) && table.threads <= 1024) settings.threads = table.threads;
    else problems.push({ key: 'threads', message: 'must be a whole number from 1 to 1024' });
  }
  const layers = table.gpu_layers;
  if (layers !== undefined) {
    if (layers === 'auto' || layers === 'max' || isWhole(layers, 0)) settings.gpuLayers = layers;
    else problems.push({ key: 'gpu_layers', message: 'must be a whole number, "auto" or "max"' });
  }
  if (table.context_size !== undefined) {
    if (isWhole(table.context_size, 256) && table.context_size <= 1_048_576) {
      settings.contextSize = table.context_size;
    } else {
      problems.push({
        key: 'context_size',
        message: 'must be a whole number of tokens from 256 to 1048576',
      });
    }
  }
  return problems.length > 0 ? unreadableSettings(problems) : { state: 'read', value: settings };
}
