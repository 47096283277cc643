import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charterSensors, isCharterSensor } from './charter-sensor.js';

describe('isCharterSensor', () => {
  it('accepts each of the three sensors', () => {
    for (const sensor of charterSensors) expect(isCharterSensor(sensor)).toBe(true);
  });

  it('refuses anything that is not exactly a sensor name', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        fc.pre(!(charterSensors as readonly unknown[]).includes(value));
        expect(isCharterSensor(value)).toBe(false);
      }),
    );
  });
});
