import { describe, expect, it } from 'vitest';
import { errorBrand, errorGuard, MechaError } from './mecha-error.js';

const configBrand = errorBrand('ConfigError');

class ConfigError extends MechaError {
  readonly [configBrand] = true;
  constructor(readonly key: string) {
    super(`missing config key ${key}`);
    this.name = 'ConfigError';
  }
  static override isInstance = errorGuard<ConfigError>('ConfigError');
}

describe('MechaError', () => {
  it('recognises its own errors and no others', () => {
    expect(MechaError.isInstance(new MechaError('x'))).toBe(true);
    expect(MechaError.isInstance(new Error('x'))).toBe(false);
    expect(MechaError.isInstance({ message: 'x' })).toBe(false);
    expect(MechaError.isInstance(null)).toBe(false);
  });

  it('tells a subclass apart from its siblings', () => {
    const error = new ConfigError('model.path');
    expect(ConfigError.isInstance(error)).toBe(true);
    expect(MechaError.isInstance(error)).toBe(true);
    expect(ConfigError.isInstance(new MechaError('other'))).toBe(false);
    expect(error.key).toBe('model.path');
  });

  it('survives a second copy of the class, as in a duplicated bundle', () => {
    const brand = Symbol.for('mecha.error');
    const foreign = Object.assign(new Error('from another copy'), { [brand]: true });
    expect(MechaError.isInstance(foreign)).toBe(true);
  });

  it('keeps the cause', () => {
    const cause = new Error('disk full');
    expect(new MechaError('write failed', { cause }).cause).toBe(cause);
  });
});
