import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSeal, sealOf } from './seal.js';

describe('the seal', () => {
  it('holds over the value it was made for, and breaks on any change to it', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.integer()), fc.string(), (value, key) => {
        const seal = sealOf(value);
        expect(checkSeal(value, seal).holds).toBe(true);
        const edited = { ...value, [key]: (value[key] ?? 0) + 1 };
        expect(checkSeal(edited, seal).holds).toBe(false);
      }),
    );
  });

  it('needs the key to verify an HMAC, and breaks when the HMAC was stripped', () => {
    const value = { verdict: 'UNSOUND' };
    const seal = sealOf(value, 'owner-key');
    expect(seal.hmac).toMatch(/^[0-9a-f]{64}$/);
    expect(checkSeal(value, seal, 'owner-key').holds).toBe(true);
    expect(checkSeal(value, seal, 'another-key').problems).toEqual([
      'the HMAC of the frozen bank does not match',
    ]);
    expect(checkSeal(value, seal)).toEqual({ holds: true, problems: [], hmacUnverified: true });
    // Anyone can recompute a bare sha256 after an edit; only the HMAC catches that.
    const forged = sealOf({ verdict: 'CORRECT' });
    expect(checkSeal({ verdict: 'CORRECT' }, forged, 'owner-key').holds).toBe(false);
  });
});
