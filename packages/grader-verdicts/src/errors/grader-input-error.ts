import { errorBrand, errorGuard, MechaError } from '@mecha/errors';

const brand = errorBrand('GraderInputError');

/**
 * A grader or the bank was handed something it cannot read: a task that names a missing file,
 * a malformed case, a frozen bank that is not JSON. The input is named so a person can fix it;
 * nothing on disk was changed.
 */
export class GraderInputError extends MechaError {
  readonly [brand] = true;

  constructor(
    /** The file or field that was wrong. */
    readonly input: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GraderInputError';
  }

  static override isInstance = errorGuard<GraderInputError>('GraderInputError');
}
