import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { closeBoard, launchChromium } from './browser.js';
import { mecha, startWeb, tempDir } from './helpers.js';

// The README's screenshot of the board, taken here so it never goes stale: `mecha demo` makes a
// sample home, `mecha web` serves it, Debian's chromium opens the board. The test checks the
// board shows the demo's tasks; only when MECHA_README_SCREENSHOT=1 does it write the picture to
// docs/board.png (so CI never rewrites the tree): run it so after a change to the board.

const picture = fileURLToPath(new URL('../../../docs/board.png', import.meta.url));

let browser: Browser | undefined;
let server: ChildProcess | undefined;
let exited: Promise<number | null> | undefined;

afterAll(async () => {
  await closeBoard(browser, server, exited);
});

describe('the board as the README shows it', () => {
  it('serves the demo home, and writes docs/board.png only when asked', async () => {
    const home = join(tempDir('mecha-readme-shot-'), 'demo');
    expect(mecha(['demo', '--home', home, '--sessions', '60', '--seed', 'readme']).code).toBe(0);
    const started = await startWeb({ MECHA_HOME: home, NO_COLOR: '1' });
    ({ server, exited } = started);
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
    await page.goto(`${started.base}/board`);
    await expect(page.locator('h1').first().textContent()).resolves.toBe('Board');
    expect(await page.locator('main').textContent()).toMatch(/task-/);
    if (process.env.MECHA_README_SCREENSHOT === '1') {
      await page.screenshot({ path: picture });
    }
  });
});
