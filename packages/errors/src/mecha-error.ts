const brand = Symbol.for('mecha.error');

/**
 * The base of every error mecha throws. Checks go through `isInstance`, which reads a
 * `Symbol.for` brand, so they hold even when two copies of a package end up in one bundle.
 */
export class MechaError extends Error {
  readonly [brand] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MechaError';
  }

  /** Whether `value` is a mecha error of any kind, from any copy of this package. */
  static isInstance(value: unknown): value is MechaError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[brand] === true
    );
  }
}

/**
 * Makes the `isInstance` check for one subclass, keyed on its own `Symbol.for` brand:
 * `static isInstance = errorGuard<ConfigError>('ConfigError')` beside `[Symbol.for('mecha.error.ConfigError')] = true`.
 */
export function errorGuard<T extends MechaError>(name: string): (value: unknown) => value is T {
  const key = Symbol.for(`mecha.error.${name}`);
  return (value: unknown): value is T =>
    MechaError.isInstance(value) && (value as unknown as Record<symbol, unknown>)[key] === true;
}

/** The brand symbol of one subclass, to set as a readonly field on it. */
export function errorBrand(name: string): symbol {
  return Symbol.for(`mecha.error.${name}`);
}
