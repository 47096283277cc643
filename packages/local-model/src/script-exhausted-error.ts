import { errorBrand, errorGuard, MechaError } from '@mecha/errors';

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
