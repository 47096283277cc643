import { errorBrand, errorGuard, MechaError } from '@mecha/errors';

/** The config key that names the model file, as a user reads it. */
export const modelPathKey = '[model] path';

/** Where the user's config lives, as the messages name it. */
export const defaultConfigFile = '~/.mecha/config.toml';

const configBrand = errorBrand('ModelConfigError');

/** Why the configured model path cannot be used. */
export type ModelConfigProblem = 'missing' | 'invalid' | 'not_found' | 'not_a_file';

/**
 * `[model] path` in the user's config is missing, not a string, or names no readable file.
 * The message names the key, the config file and what to do.
 */
export class ModelConfigError extends MechaError {
  readonly [configBrand] = true;
  /** Always `[model] path`. */
  readonly key = modelPathKey;

  constructor(
    readonly problem: ModelConfigProblem,
    readonly configFile: string,
    /** The resolved path, when there was one. */
    readonly path?: string,
    options?: { cause?: unknown },
  ) {
    super(configMessage(problem, configFile, path), options);
    this.name = 'ModelConfigError';
  }

  static override isInstance = errorGuard<ModelConfigError>('ModelConfigError');
}

function configMessage(problem: ModelConfigProblem, configFile: string, path?: string): string {
  const where = `${modelPathKey} in ${configFile}`;
  const example = `add\n\n  [model]\n  path = "~/models/your-model.gguf"\n\nto ${configFile}`;
  switch (problem) {
    case 'missing':
      return `No local model is configured: ${where} is not set. Download a GGUF model file and ${example}.`;
    case 'invalid':
      return `${where} must be a non-empty string naming a GGUF file; ${example}.`;
    case 'not_found':
      return `The model file ${path} named by ${where} does not exist. Check the path, or point ${where} at a GGUF file that does.`;
    case 'not_a_file':
      return `The model path ${path} named by ${where} is not a file. Point ${where} at the GGUF file itself, not its folder.`;
  }
}
