import { errorBrand, errorGuard, MechaError } from '@mecha/errors';

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
