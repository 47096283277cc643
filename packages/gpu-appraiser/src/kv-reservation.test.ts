import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalModel } from '@mecha/local-model';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { kvPageTokens, reservedTokens, reserveKvPages } from './kv-reservation.js';

const root = mkdtempSync(join(tmpdir(), 'mecha-appraiser-kv-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('reserving the key/value pages at start', () => {
  it('reserves 16 tokens a page, so the default 160 pages are 2,560 tokens', () => {
    expect(kvPageTokens).toBe(16);
    expect(reservedTokens(160)).toBe(2560);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1 << 20 }), (pages) => {
        expect(reservedTokens(pages) / kvPageTokens).toBe(pages);
      }),
    );
  });

  it('refuses with the reason when the model cannot be loaded to hold them', async () => {
    // Not a GGUF: the load fails before any context is allocated.
    const path = join(root, 'not-a-model.gguf');
    writeFileSync(path, 'not a model');
    const model = createLocalModel({ path, threads: 1, gpu: false, contextSize: 64 });
    const reservation = await reserveKvPages(model, 4);
    expect(reservation._tag).toBe('Left');
    expect(reservation._tag === 'Left' && reservation.left.message).toMatch(
      /^cannot reserve 4 key\/value pages \(64 tokens per sequence\): .*not-a-model\.gguf/,
    );
    await model.dispose();
  });
});
