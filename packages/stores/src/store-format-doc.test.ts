import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The script reads the built package, like the barrel test.
const script = new URL('../scripts/write-docs.mjs', import.meta.url).href;

describe('docs/store-format.md', () => {
  it('embeds the current JSON Schemas of the records this package owns', async () => {
    const { renderedPage, storeFormatPage } = (await import(script)) as {
      renderedPage: (text: string) => string;
      storeFormatPage: string;
    };
    const text = readFileSync(storeFormatPage, 'utf8');
    expect(text).toBe(renderedPage(text));
  });

  it('names every file of the home layout', async () => {
    const { homeLayout } = await import('./home-layout.js');
    const { storeFormatPage } = (await import(script)) as { storeFormatPage: string };
    const text = readFileSync(storeFormatPage, 'utf8');
    for (const file of Object.values(homeLayout)) expect(text, file).toContain(file);
  });
});
