import { fileURLToPath } from 'node:url';
import { bundleForBrowser } from '@mecha/vitest-config/browser-bundle';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

describe('the built @mecha/errors', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'MechaError',
      'UnexpectedLeftError',
      'couldNotRead',
      'errorBrand',
      'errorGuard',
      'isComplete',
      'isLeft',
      'left',
      'leftOrThrow',
      'readValue',
      'recordsOf',
      'refusal',
      'right',
      'rightOrThrow',
    ]);
  });

  it('bundles for a browser with no Node module', async () => {
    const result = await bundleForBrowser(entry);
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
  });
});
