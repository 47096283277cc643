import { errorBrand, errorGuard, MechaError } from '@mecha/errors';

/** The config key that names the model file, as a user reads it. */
export const modelPathKey = '[model] path';

/** Where the user's config lives, as the messages name it. */
export const defaultConfigFile = '~/.mecha/config.toml';

const configBrand = errorBrand('ModelConfigError');

/** Why the configured model path cannot be used. */
export type ModelConfigProblem =
  | 'missing'
  | 'invalid'
  | 'not_found'
  | 'not_a_file'
  | 'invalid_uri'
  | 'secret_in_uri'
  | 'fetch_failed';

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
    /** The resolved path, when there was one (the URI, for a model URI). */
    readonly path?: string,
    options?: {
      cause?: unknown;
      /** For a model URI: the folder it is fetched into. */
      cacheDir?: string;
    },
  ) {
    super(
      configMessage(problem, configFile, path, options),
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.cacheDir = options?.cacheDir;
    this.name = 'ModelConfigError';
  }

  /** For a model URI: the folder it is fetched into. */
  readonly cacheDir: string | undefined;

  static override isInstance = errorGuard<ModelConfigError>('ModelConfigError');
}

function causeText(cause: unknown): string {
  // The chain, outermost first, as far as three deep: "cannot be reached (fetch failed: ECONNREFUSED …)".
  const messages: string[] = [];
  let current: unknown = cause;
  while (messages.length < 3 && current !== undefined && current !== null) {
    const message = current instanceof Error ? current.message : String(current);
    if (message !== '') messages.push(message);
    current = current instanceof Error ? (current as { cause?: unknown }).cause : undefined;
  }
  const [first = 'unknown error', ...rest] = messages;
  return rest.length === 0 ? first : `${first} (${rest.join(': ')})`;
}

function configMessage(
  problem: ModelConfigProblem,
  configFile: string,
  path?: string,
  options?: { cause?: unknown; cacheDir?: string },
): string {
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
    case 'invalid_uri':
      return `The model URI ${path !== undefined && /[@?]/.test(path) ? '' : `${path} `}named by ${where} is not one mecha can fetch: use "hf:<user>/<repo>:<quant>", "hf:<user>/<repo>/<file>.gguf", or an https:// URL of a GGUF file.`;
    case 'secret_in_uri':
      return `The model URL named by ${where} holds a user name, a password or a secret-looking query (a token, key or signature), and config.toml must hold no secret (it is copied, shared and backed up): remove it from the URL, or download the GGUF file yourself and set ${modelPathKey} to its path.`;
    case 'fetch_failed':
      return `The model ${path} named by ${where} could not be fetched into ${options?.cacheDir ?? 'the model cache'}: ${options?.cause === undefined ? 'unknown error' : causeText(options.cause)}. Check the network and the URI, or download the GGUF file yourself and set ${modelPathKey} to its path.`;
  }
}
