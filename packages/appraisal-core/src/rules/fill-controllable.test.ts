import { describe, expect, it } from 'vitest';
import { fillControllable } from './fill-controllable.js';
import { signEntry } from './signed-entry.js';

describe('fillControllable', () => {
  const entries = [
    signEntry('steer', { kind: 'turn', turn: 2 }, undefined),
    signEntry('deny', { kind: 'turn', turn: 2 }, undefined),
    signEntry('steer', { kind: 'turn', turn: 4 }, undefined),
    signEntry('stepCheckFailed', { kind: 'turn', turn: 2 }, undefined),
  ];

  it('fills only the steers and denials the probe resolved, by kind and turn', () => {
    const filled = fillControllable(
      entries,
      new Map([
        ['steer:2', true],
        ['deny:2', false],
      ]),
    );
    expect(filled.map((entry) => entry.error.controllable)).toEqual([
      true,
      false,
      'unfilled',
      'unfilled',
    ]);
  });

  it('leaves everything unfilled without a probe', () => {
    expect(fillControllable(entries, undefined)).toEqual(entries);
    expect(fillControllable(entries, new Map())).toEqual(entries);
  });
});
