import { errorBrand, errorGuard, MechaError } from './mecha-error.js';

const name = 'UnexpectedLeftError';
const brand = errorBrand(name);

/**
 * An `Either` held the side its caller was sure it would not: a programming error or a test's
 * failed expectation, never an expected failure (those stay values). `left` is the value found.
 */
export class UnexpectedLeftError extends MechaError {
  readonly [brand] = true;
  static override isInstance = errorGuard<UnexpectedLeftError>(name);

  constructor(
    message: string,
    readonly found: unknown,
  ) {
    super(message);
    this.name = name;
  }
}
