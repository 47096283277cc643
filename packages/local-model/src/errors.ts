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

const loadBrand = errorBrand('ModelLoadError');

/** node-llama-cpp could not load the model file (not a GGUF, unsupported architecture, no memory). */
export class ModelLoadError extends MechaError {
  readonly [loadBrand] = true;

  constructor(
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    const reason = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(`Could not load the model ${path}${reason}`, options);
    this.name = 'ModelLoadError';
  }

  static override isInstance = errorGuard<ModelLoadError>('ModelLoadError');
}

const promptBrand = errorBrand('PromptTooLongError');

/** The prompt and `maxTokens` together do not fit the context: refused before any decoding. */
export class PromptTooLongError extends MechaError {
  readonly [promptBrand] = true;

  constructor(
    readonly promptTokens: number,
    readonly maxTokens: number,
    readonly contextSize: number,
  ) {
    super(
      `The prompt (${promptTokens} tokens) and maxTokens (${maxTokens}) exceed the model context of ${contextSize} tokens; shorten the prompt or lower maxTokens.`,
    );
    this.name = 'PromptTooLongError';
  }

  static override isInstance = errorGuard<PromptTooLongError>('PromptTooLongError');
}

const grammarBrand = errorBrand('GrammarError');

/** A GBNF grammar or JSON schema that node-llama-cpp/llama.cpp refused. */
export class GrammarError extends MechaError {
  readonly [grammarBrand] = true;

  constructor(
    readonly kind: 'gbnf' | 'jsonSchema',
    options?: { cause?: unknown },
  ) {
    const reason = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(`The ${kind === 'gbnf' ? 'GBNF grammar' : 'JSON schema'} was refused${reason}`, options);
    this.name = 'GrammarError';
  }

  static override isInstance = errorGuard<GrammarError>('GrammarError');
}

const scriptBrand = errorBrand('ScriptExhaustedError');

/** A scripted model was asked for more completions than it has replies. */
export class ScriptExhaustedError extends MechaError {
  readonly [scriptBrand] = true;

  constructor(readonly replies: number) {
    super(`The scripted model has only ${replies} replies and was asked for another.`);
    this.name = 'ScriptExhaustedError';
  }

  static override isInstance = errorGuard<ScriptExhaustedError>('ScriptExhaustedError');
}

const disposedBrand = errorBrand('ModelDisposedError');

/** `complete` was called after `dispose`. */
export class ModelDisposedError extends MechaError {
  readonly [disposedBrand] = true;

  constructor() {
    super('The model was disposed.');
    this.name = 'ModelDisposedError';
  }

  static override isInstance = errorGuard<ModelDisposedError>('ModelDisposedError');
}
