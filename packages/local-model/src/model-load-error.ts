import { errorBrand, errorGuard, MechaError } from '@mecha/errors';

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
