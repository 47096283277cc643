import { errorBrand, errorGuard, MechaError } from '@mecha/errors';

const brand = errorBrand('CharterArgumentError');

/**
 * Thrown only for a programming error: a value no caller should ever pass, such as a `NaN` age,
 * a zero patience or a surface that is not a person's. Everything a person or a file can get
 * wrong (a bad TOML file, a duplicate id, a forged capability) comes back as a value instead.
 */
export class CharterArgumentError extends MechaError {
  readonly [brand] = true;

  constructor(
    /** The parameter that was out of range, as named in the function's signature. */
    readonly argument: string,
    message: string,
  ) {
    super(message);
    this.name = 'CharterArgumentError';
  }

  static override isInstance = errorGuard<CharterArgumentError>('CharterArgumentError');
}
