import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveModelSettings } from './model-settings.js';

describe('resolveModelSettings', () => {
  it('reads threads, gpu_layers and context_size and leaves absent keys absent', () => {
    expect(resolveModelSettings({ path: 'x.gguf', threads: 4, gpu_layers: 'max' })).toEqual({
      state: 'read',
      value: { threads: 4, gpuLayers: 'max' },
    });
    expect(resolveModelSettings(undefined)).toEqual({ state: 'read', value: {} });
    expect(resolveModelSettings({ context_size: 4096, gpu_layers: 0 })).toEqual({
      state: 'read',
      value: { contextSize: 4096, gpuLayers: 0 },
    });
  });

  it('names every bad key at once', () => {
    const result = resolveModelSettings({ threads: 0, gpu_layers: 'some', context_size: 1.5 });
    expect(result.state).toBe('unreadable');
    if (result.state === 'unreadable') {
      expect(result.problems.map((problem) => problem.key)).toEqual([
        'threads',
        'gpu_layers',
        'context_size',
      ]);
    }
  });

  it('accepts exactly the whole thread counts from 1 to 1024', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.double()), (threads) => {
        const accepted = resolveModelSettings({ threads }).state === 'read';
        expect(accepted).toBe(Number.isInteger(threads) && threads >= 1 && threads <= 1024);
      }),
    );
  });
});
