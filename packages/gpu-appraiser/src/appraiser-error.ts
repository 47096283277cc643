import { errorBrand, errorGuard, MechaError } from '@mecha/errors';

const brand = errorBrand('AppraiserInputError');

/**
 * A request the appraiser refuses as asked (an empty report, text that is not well-formed, an
 * unknown queue id). The message says what to do instead; nothing was written.
 */
export class AppraiserInputError extends MechaError {
  readonly [brand] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppraiserInputError';
  }

  static override isInstance = errorGuard<AppraiserInputError>('AppraiserInputError');
}
